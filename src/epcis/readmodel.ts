// The EPCIS events query over the read model (./keys.ts): facts in event
// time order (ties in log order), made into ObjectEvents with the location
// identifiers in force and filtered per event; paged by fact id as the
// history query pages, so a page never repeats or skips an event whatever
// is written between pages.
import type { RedisClient } from '../core/redis/connect';
import type { RedisKeys } from '../core/redis/keys';
import { ReadModelGate } from '../core/redis/readiness';
import { epcMatches } from './epc-uri';
import { objectEventOf, type ObjectEvent } from './mapping';
import type { EpcisQuery } from './query';
import { EpcisSource } from './source';
import type { LocationIds } from './locations';
import { decodeStored } from '../core/stored-json';
import { lexPage, timeRangeOf } from '../core/redis/lex-page';
import { EPCIS_READ_MODEL, epcisKeys, type EpcisKeys } from './keys';

export interface EpcisPage {
  readonly events: ObjectEvent[];
  /** The token of the next page; undefined on the last one. */
  readonly nextPageToken: string | undefined;
}

/** Whether `e` passes every filter of `q`. */
export function matchesQuery(e: ObjectEvent, q: EpcisQuery): boolean {
  if (q.bizLocations !== undefined && (e.bizLocation === undefined || !q.bizLocations.has(e.bizLocation.id))) return false;
  if (q.readPoints !== undefined && !q.readPoints.has(e.readPoint.id)) return false;
  if (q.bizSteps !== undefined && (e.bizStep === undefined || !q.bizSteps.has(e.bizStep))) return false;
  if (q.epcs !== undefined && !e.epcList.some((epc) => q.epcs!.some((p) => epcMatches(p, epc)))) return false;
  return true;
}

export class EpcisReadModel {
  private readonly k: EpcisKeys;
  private readonly gate: ReadModelGate;

  constructor(
    private readonly redis: RedisClient,
    keys: RedisKeys,
  ) {
    this.k = epcisKeys(keys);
    this.gate = new ReadModelGate(redis, keys);
  }

  /** Served only while the read model is ready (a 503 while Redis lost it and it is rebuilt). */
  events(q: EpcisQuery, ids: LocationIds): Promise<EpcisPage> {
    return this.gate.read(EPCIS_READ_MODEL, async () => {
      const accept = (id: string, raw: string): ObjectEvent | undefined => {
        const e = objectEventOf(decodeStored(EpcisSource, raw, `EPCIS read model: source ${id}`), ids, { withRecordTime: true });
        return matchesQuery(e, q) ? e : undefined;
      };
      const range = timeRangeOf({ fromMs: q.fromMs, toMs: q.toMs, after: q.after, pageSize: q.perPage });
      const { page, more } = await lexPage(this.redis, { index: this.k.ids, records: this.k.source }, range, accept);
      const last = page[page.length - 1]?.id;
      return { events: page.map((p) => p.value), nextPageToken: more && last !== undefined ? q.token(last) : undefined };
    });
  }
}
