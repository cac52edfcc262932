// The transitions query over the read model (./transition-keys.ts): records in time
// order (ties by transition id), filtered per record; paging by record id as
// the history query pages.
import type { RedisClient } from '../core/redis/connect';
import type { RedisKeys } from '../core/redis/keys';
import { formatEpc } from './epc';
import type { TransitionsQuery } from './transitions-query';
import { lexPage, timeRangeOf } from '../core/redis/lex-page';
import { ReadModelGate } from '../core/redis/readiness';
import { TRANSITIONS_READ_MODEL, transitionKeys, type TransitionKeys } from './transition-keys';
import { decodeIterationRecord, decodeTransitionRecord, type IterationRecord, type TransitionRecord } from './transition-model';

export interface TransitionsPage {
  readonly transitions: TransitionRecord[];
  readonly nextPageMarker: string | null;
  readonly moreTransitionsAvailable: boolean;
}

/** Whether a record passes the `threshold` filter: its id in decimal, or its name. */
export const matchesThreshold = (filter: string, thresholdId: number, thresholdName: string): boolean =>
  filter === String(thresholdId) || filter === thresholdName;

export class TransitionsReadModel {
  private readonly k: TransitionKeys;
  private readonly gate: ReadModelGate;

  constructor(
    private readonly redis: RedisClient,
    keys: RedisKeys,
  ) {
    this.k = transitionKeys(keys);
    this.gate = new ReadModelGate(redis, keys);
  }

  /** Served only while the read model is ready (a 503 while Redis lost it and it is rebuilt). */
  transitions(q: TransitionsQuery): Promise<TransitionsPage> {
    return this.gate.read(TRANSITIONS_READ_MODEL, () => this.transitionsNow(q));
  }

  iterations(q: { jobId?: string; from?: Date; to?: Date }, limit = 10_000): Promise<IterationRecord[]> {
    return this.gate.read(TRANSITIONS_READ_MODEL, () => this.iterationsNow(q, limit));
  }

  private async transitionsNow(q: TransitionsQuery): Promise<TransitionsPage> {
    const accept = (id: string, raw: string): TransitionRecord | undefined => {
      const r = decodeTransitionRecord(id, raw);
      if (q.threshold !== undefined && !matchesThreshold(q.threshold, r.thresholdId, r.thresholdName)) return undefined;
      if (q.jobId !== undefined && r.jobId !== q.jobId) return undefined;
      if (q.destination !== undefined && r.destination !== q.destination) return undefined;
      if (q.epcPrefix !== undefined && !r.epc.startsWith(q.epcPrefix)) return undefined;
      const shown = q.epcFormat === undefined ? r.epc : formatEpc(r.epc, q.epcFormat);
      if (shown === undefined) return undefined;
      return shown === r.epc ? r : { ...r, epc: shown };
    };
    const { page, more } = await lexPage(this.redis, { index: this.k.ids, records: this.k.record }, timeRangeOf(q), accept);
    const lastId = page[page.length - 1]?.id ?? q.after;
    return {
      transitions: page.map((p) => p.value),
      nextPageMarker: more || q.alwaysIncludePageMarker ? q.marker(lastId) : null,
      moreTransitionsAvailable: more,
    };
  }

  /** Iteration records of `jobId` (all jobs when undefined) decided in [from, to], oldest first, at most `limit`. */
  private async iterationsNow(q: { jobId?: string; from?: Date; to?: Date }, limit: number): Promise<IterationRecord[]> {
    const min = q.from === undefined ? '-inf' : String(q.from.getTime());
    const max = q.to === undefined ? '+inf' : String(q.to.getTime());
    const out: IterationRecord[] = [];
    for (let offset = 0; out.length < limit; offset += 1000) {
      const raws = await this.redis.zRange(this.k.iterations, min, max, { BY: 'SCORE', LIMIT: { offset, count: 1000 } });
      for (const raw of raws) {
        const r = decodeIterationRecord(raw);
        if (q.jobId === undefined || r.jobId === q.jobId) out.push(r);
      }
      if (raws.length < 1000) break;
    }
    return out.slice(0, limit);
  }
}
