// Per-second counts of recorded things over the last minutes, read from a
// read model's time index (item changes, reader health events): what a
// dashboard charts as a rate. Counted from what the event log holds, so a
// client sees the true rate from its first request, not only since it opened.
import * as t from 'io-ts';
import { IntegerFromString } from './codecs';
import { decodeInput } from './http/decode';

export const MAX_RATE_SECONDS = 3600;
export const DEFAULT_RATE_SECONDS = 300;

const Seconds = new t.Type<number, string, unknown>(
  'seconds',
  (u): u is number => typeof u === 'number' && Number.isInteger(u) && u >= 1 && u <= MAX_RATE_SECONDS,
  (u, c) => {
    const n = IntegerFromString.validate(u, c);
    if (n._tag === 'Left') return n;
    return n.right >= 1 && n.right <= MAX_RATE_SECONDS ? n : t.failure(u, c, `must be 1 to ${MAX_RATE_SECONDS}, got ${n.right}`);
  },
  String,
);
const RatesQuery = t.exact(t.partial({ seconds: Seconds }));

/** The number of seconds asked for (`?seconds=`, 1-3600, default 300), or a 400 naming query.seconds. */
export function rateSeconds(query: unknown): number {
  return decodeInput(RatesQuery, query, 'query').seconds ?? DEFAULT_RATE_SECONDS;
}

export interface Rates {
  /** End of the last second counted (exclusive), ISO 8601: the last whole second before the request. */
  readonly to: string;
  /** One count per second, oldest first; the last is the second ending at `to`. */
  readonly perSecond: number[];
}

/**
 * Counts per whole second of the `seconds` before now: `count(fromMs, toMs)`
 * counts one second [fromMs, toMs). The second under way is left out (still
 * filling up, it would read as a drop).
 */
export async function perSecond(nowMs: number, seconds: number, count: (fromMs: number, toMs: number) => Promise<number>): Promise<Rates> {
  const end = Math.floor(nowMs / 1000) * 1000;
  const starts = Array.from({ length: seconds }, (_, i) => end - (seconds - i) * 1000);
  return { to: new Date(end).toISOString(), perSecond: await Promise.all(starts.map((s) => count(s, s + 1000))) };
}

/** JSON Schema of the answer, for the OpenAPI document. */
export const ratesSchema: Record<string, unknown> = {
  type: 'object',
  required: ['to', 'perSecond'],
  additionalProperties: false,
  properties: {
    to: { type: 'string', format: 'date-time', description: 'end of the last second counted (exclusive)' },
    perSecond: { type: 'array', items: { type: 'integer', minimum: 0 }, description: 'one count per second, oldest first' },
  },
};

/** The `seconds` query parameter, for the OpenAPI document. */
export const ratesQueryParam = {
  name: 'seconds',
  description: `how many whole seconds before now, 1-${MAX_RATE_SECONDS}, default ${DEFAULT_RATE_SECONDS}`,
  schema: { type: 'integer', minimum: 1, maximum: MAX_RATE_SECONDS, default: DEFAULT_RATE_SECONDS },
};
