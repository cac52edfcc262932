// What the writer must know about a stream to check an expected revision and
// what readers must know to hide deleted or truncated events.
export interface StreamState {
  /** last written revision, -1 when nothing was ever written */
  last: number;
  tombstoned: boolean;
  /** from the stream's metadata ($$stream): $tb, $maxCount, $maxAge (seconds) */
  truncateBefore?: number;
  maxCount?: number;
  maxAge?: number;
}

export const EMPTY_STREAM: StreamState = { last: -1, tombstoned: false };

/**
 * A stream exists for expected-revision purposes when it has a visible head.
 * A soft delete sets truncate-before past the last event, so a deleted stream
 * does not exist until it is appended to again.
 */
export function exists(s: StreamState): boolean {
  return s.last >= 0 && (s.truncateBefore ?? 0) <= s.last && !s.tombstoned;
}

/** Lowest revision a reader may see. */
export function firstVisible(s: StreamState): number {
  let from = s.truncateBefore ?? 0;
  if (s.maxCount !== undefined) from = Math.max(from, s.last - s.maxCount + 1);
  return from;
}

/** Applies a `$metadata` event written to `$$stream` to the state of `stream`. */
export function applyMetadata(s: StreamState, json: unknown): StreamState {
  const m = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const next: StreamState = { last: s.last, tombstoned: s.tombstoned };
  const tb = num(m['$tb']);
  const mc = num(m['$maxCount']);
  const ma = num(m['$maxAge']);
  if (tb !== undefined) next.truncateBefore = tb;
  if (mc !== undefined) next.maxCount = mc;
  if (ma !== undefined) next.maxAge = ma;
  return next;
}
