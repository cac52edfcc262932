// One page of a time-ordered record index: a sorted set of ids (score 0,
// ids start with a fixed-width time so lex order is time order) beside a hash
// id -> record JSON. Walks the lex range in chunks from after the page
// marker's id, keeps the records `accept` takes, and reads one record past
// the page to know whether more follow. Shared by the history and the
// threshold transitions queries.
import type { RedisClient } from './connect';

/** Time as a fixed-width decimal, so lex order is time order (times before 1970 count as 0); every time-ordered index's ids start with it. */
export const timeKey = (ms: number): string => Math.max(0, Math.floor(ms)).toString().padStart(15, '0');

const CHUNK = 1000;

export interface LexPageRange {
  /** Lex bound of the first id (inclusive), e.g. the fixed-width fromTime; undefined: from the start. */
  readonly from: string | undefined;
  /** Lex bound of the last id (exclusive); undefined: to the end. */
  readonly to: string | undefined;
  /** The id the previous page ended with (exclusive). */
  readonly after: string | undefined;
  readonly pageSize: number;
}

/** The range of a query with fromTime (inclusive) / toTime (exclusive) over ids that start with timeKey(ms). */
export function timeRangeOf(q: { readonly fromMs: number | undefined; readonly toMs: number | undefined; readonly after: string | undefined; readonly pageSize: number }): LexPageRange {
  return { from: q.fromMs === undefined ? undefined : timeKey(q.fromMs), to: q.toMs === undefined ? undefined : timeKey(q.toMs), after: q.after, pageSize: q.pageSize };
}

export async function lexPage<T>(
  redis: RedisClient,
  keys: { readonly index: string; readonly records: string },
  range: LexPageRange,
  accept: (id: string, raw: string) => T | undefined,
): Promise<{ page: Array<{ id: string; value: T }>; more: boolean }> {
  const found: Array<{ id: string; value: T }> = [];
  const { from, after, pageSize } = range;
  let min = after !== undefined && (from === undefined || after >= from) ? `(${after}` : from !== undefined ? `[${from}` : '-';
  const max = range.to === undefined ? '+' : `(${range.to}`;
  while (found.length <= pageSize) {
    const ids = await redis.zRange(keys.index, min, max, { BY: 'LEX', LIMIT: { offset: 0, count: CHUNK } });
    if (ids.length > 0) {
      const raws = await redis.hmGet(keys.records, ids);
      ids.forEach((id, i) => {
        const raw = raws[i];
        if (raw == null) return;
        const value = accept(id, raw);
        if (value !== undefined) found.push({ id, value });
      });
    }
    const last = ids[ids.length - 1];
    if (last === undefined || ids.length < CHUNK) break;
    min = `(${last}`;
  }
  return { page: found.slice(0, pageSize), more: found.length > pageSize };
}
