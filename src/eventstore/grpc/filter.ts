// Server-side filters of $all reads and subscriptions (stream name or event
// type, by prefixes or a regular expression) and their checkpoint interval.
import { streamsPb } from './proto';
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

export function parseFilter(options: InstanceType<typeof streamsPb.ReadReq.Options>): EventFilter | undefined {
  const f = options.getFilter();
  if (!f) return undefined;
  const C = streamsPb.ReadReq.Options.FilterOptions.FilterCase;
  const onStream = f.getFilterCase() === C.STREAM_IDENTIFIER;
  const expr = onStream ? f.getStreamIdentifier() : f.getEventType();
  if (!expr) return undefined;
  const prefixes = expr.getPrefixList();
  let test: (s: string) => boolean;
  if (prefixes.length > 0) {
    test = (s) => prefixes.some((p) => s.startsWith(p));
  } else {
    let re: RegExp;
    try {
      re = new RegExp(expr.getRegex());
    } catch (err) {
      throw new InvalidArgument(`invalid filter regex: ${(err as Error).message}`);
    }
    test = (s) => re.test(s);
  }
  const W = streamsPb.ReadReq.Options.FilterOptions.WindowCase;
  const window = f.getWindowCase() === W.MAX && f.getMax() > 0 ? f.getMax() : DEFAULT_WINDOW;
  const multiplier = Math.max(1, f.getCheckpointintervalmultiplier());
  return {
    matches: onStream ? (h) => test(h.stream) : (h) => test(h.type),
    checkpointInterval: window * multiplier,
  };
}
