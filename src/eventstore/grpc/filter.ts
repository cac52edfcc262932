// Server-side filters of $all reads and subscriptions (stream name or event
// type, by prefixes or a regular expression) and their checkpoint interval.
import type { ReadOptions } from './proto';
import { InvalidArgument } from '../storage/errors';
import type { RecordHeader } from '../storage/records';

export interface EventFilter {
  matches(h: Pick<RecordHeader, 'stream' | 'type'>): boolean;
  /** send a checkpoint after this many scanned events */
  checkpointInterval: number;
}

// EventStoreDB's search window when the client asks for `count` instead of a
// maximum; the checkpoint interval is the window times the multiplier.
const DEFAULT_WINDOW = 32;

export function parseFilter(options: ReadOptions): EventFilter | undefined {
  const f = options.filterOption === 'filter' ? options.filter : undefined;
  if (!f) return undefined;
  const onStream = f.filter === 'streamIdentifier';
  const expr = onStream ? f.streamIdentifier : f.filter === 'eventType' ? f.eventType : undefined;
  if (!expr) return undefined;
  const prefixes = expr.prefix ?? [];
  let test: (s: string) => boolean;
  if (prefixes.length > 0) {
    test = (s) => prefixes.some((p) => s.startsWith(p));
  } else {
    let re: RegExp;
    try {
      re = new RegExp(expr.regex ?? '');
    } catch (err) {
      throw new InvalidArgument(`invalid filter regex: ${(err as Error).message}`);
    }
    test = (s) => re.test(s);
  }
  const window = f.window === 'max' && (f.max ?? 0) > 0 ? (f.max ?? DEFAULT_WINDOW) : DEFAULT_WINDOW;
  const multiplier = Math.max(1, f.checkpointIntervalMultiplier ?? 0);
  return {
    matches: onStream ? (h) => test(h.stream) : (h) => test(h.type),
    checkpointInterval: window * multiplier,
  };
}
