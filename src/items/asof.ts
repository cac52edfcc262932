// As-of queries: the items of a facility as they were at a past time,
// computed from the log (GET /data/v1/items/show/asOf). Rules and cost in
// docs/item-processing.md ("As-of queries").
//
// The answer is what the items read model would show if the log held only
// the changes with observationTime <= asOf: ENGINE_STREAM is read forwards,
// every change with reportToDatabaseEnabled and observationTime <= asOf sets
// its EPC to the change's to-side (the last such change in log order wins,
// as in the read model), later changes are skipped one by one (a batch may
// straddle asOf), and the read stops at the first ItemsChanged appended
// (`at`) more than AS_OF_LATENESS_MS after asOf. An item reset (ItemsChanged
// with `reset`) appended (`at`) at or before asOf drops the facility's items
// folded so far; one after asOf does not count (the items were there then),
// clearHistory or not: the log keeps what it recorded.
import { FORWARDS, START, StreamNotFoundError, type EventStoreDBClient } from '@eventstore/db-client';
import { isLeft } from 'fp-ts/Either';
import { decodeRecorded } from '../core/events';
import { ENGINE_STREAM, itemEvents } from '../engine';
import type { ItemChange } from '../engine';
import { itemAfter, type Item } from './model';
import { formatEpc } from './epc';
import type { AsOfQuery } from './query';

/**
 * How long after asOf the scan keeps reading: a change observed at or before
 * asOf but appended later than this (engine catching up after downtime,
 * reader backlogs) is not seen. The engine normally appends a change within
 * a second of its observation.
 */
export const AS_OF_LATENESS_MS = 5 * 60_000;
/** Events read per request to the event store. */
const READ_CHUNK = 1000;

export interface AsOfPage {
  /** The time answered for (ISO); a requested time in the future is answered as of the first page's request. */
  readonly asOf: string;
  readonly items: Item[];
  readonly nextPageMarker: string | null;
}

/** Work done by one scan (for logs and tests). */
export interface AsOfStats {
  events: number;
  changes: number;
  /** Whether the scan stopped at the lateness horizon (false: it read the whole stream). */
  stoppedEarly: boolean;
}

/**
 * The pure fold: feed the ItemsChanged events of ENGINE_STREAM in order to
 * `add` until it returns false, then read `items`.
 */
export class AsOfFold {
  /** EPC -> the item after its latest applied change. */
  private readonly latest = new Map<string, Item>();
  readonly stats: AsOfStats = { events: 0, changes: 0, stoppedEarly: false };

  constructor(
    private readonly asOfMs: number,
    private readonly epcPrefix: string | undefined,
    private readonly latenessMs: number = AS_OF_LATENESS_MS,
  ) {}

  /** Applies one event; false when it is past the horizon (not applied): the scan stops. */
  add(event: { readonly at: number; readonly changes: readonly ItemChange[]; readonly reset?: { readonly facility: string } | undefined }): boolean {
    if (event.at > this.asOfMs + this.latenessMs) {
      this.stats.stoppedEarly = true;
      return false;
    }
    this.stats.events += 1;
    const reset = event.reset;
    if (reset !== undefined && event.at <= this.asOfMs) {
      for (const [epc, item] of this.latest) if (item.facility === reset.facility) this.latest.delete(epc);
    }
    for (const change of event.changes) {
      if (!change.reportToDatabaseEnabled || change.observationTime > this.asOfMs) continue;
      const epc = change.epc.toUpperCase();
      if (this.epcPrefix !== undefined && !epc.startsWith(this.epcPrefix)) continue;
      this.stats.changes += 1;
      this.latest.set(epc, itemAfter(change));
    }
    return true;
  }

  /** The items of `facility` (zone filter applied), in EPC order. */
  itemsOf(facility: string, zoneNames: readonly string[] | undefined): Item[] {
    const zones = zoneNames ? new Set(zoneNames) : undefined;
    const out: Item[] = [];
    for (const item of this.latest.values()) {
      if (item.facility !== facility) continue;
      if (zones && !zones.has(item.zone)) continue;
      out.push(item);
    }
    return out.sort((a, b) => (a.epc < b.epc ? -1 : a.epc > b.epc ? 1 : 0));
  }
}

/** One page of the query from the folded items (EPC order, after the cursor, epcFormat applied). */
export function asOfPage(items: readonly Item[], q: AsOfQuery, asOfMs: number): AsOfPage {
  // Looks one item past the page to know whether there is a next one.
  const found: { epc: string; item: Item }[] = [];
  for (const item of items) {
    if (found.length > q.pageSize) break;
    if (q.after !== undefined && item.epc <= q.after) continue;
    const shown = q.epcFormat === undefined ? item.epc : formatEpc(item.epc, q.epcFormat);
    if (shown === undefined) continue;
    found.push({ epc: item.epc, item: shown === item.epc ? item : { ...item, epc: shown } });
  }
  const page = found.slice(0, q.pageSize);
  const last = page[page.length - 1];
  return {
    asOf: new Date(asOfMs).toISOString(),
    items: page.map((f) => f.item),
    // The cursor is the stored EPC (the shown one may be a URI).
    nextPageMarker: found.length > q.pageSize && last ? q.marker(last.epc, asOfMs) : null,
  };
}

/**
 * Reads ENGINE_STREAM forwards in chunks into `fold` until it stops or the
 * stream ends. Every chunk is read to its end (a client read left early
 * keeps its gRPC call open).
 */
export async function scanEngineStream(client: EventStoreDBClient, fold: AsOfFold, chunk: number = READ_CHUNK, stream: string = ENGINE_STREAM): Promise<AsOfStats> {
  let from: bigint | typeof START = START;
  for (;;) {
    let read = 0;
    let stop = false;
    let last: bigint | undefined;
    let failure: { error: unknown } | undefined;
    try {
      for await (const resolved of client.readStream(stream, { fromRevision: from, direction: FORWARDS, maxCount: chunk })) {
        read += 1;
        if (stop || failure) continue;
        const decoded = decodeRecorded(resolved, itemEvents);
        if (isLeft(decoded)) {
          failure = { error: decoded.left };
          continue;
        }
        last = decoded.right.revision;
        if (!fold.add(decoded.right.data)) stop = true;
      }
    } catch (err) {
      if (err instanceof StreamNotFoundError) return fold.stats;
      throw err;
    }
    if (failure) throw failure.error;
    if (stop || read < chunk || last === undefined) return fold.stats;
    from = last + 1n;
  }
}

/** The page of `q`, folding the log up to the query's time (a future time counts as `now`). */
export async function itemsAsOf(client: EventStoreDBClient, q: AsOfQuery, now: number = Date.now(), stream: string = ENGINE_STREAM): Promise<AsOfPage & { stats: AsOfStats }> {
  const asOfMs = q.pinnedAsOfMs ?? Math.min(q.timeMs, now);
  const fold = new AsOfFold(asOfMs, q.epcPrefix);
  const stats = await scanEngineStream(client, fold, READ_CHUNK, stream);
  return { ...asOfPage(fold.itemsOf(q.facility, q.zoneNames), q, asOfMs), stats };
}
