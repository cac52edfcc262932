// How far a reader of the log (a projection, the item engine, the relay)
// stands behind its end: the events its filter matches after its position,
// and when the oldest of them was written. Bounded, so a health probe or a
// metrics scrape stays cheap however far behind it is.
import { FORWARDS, type EventStoreDBClient, type Filter, type Position } from '@eventstore/db-client';
import { matchesFilter } from './catch-up-target';

/**
 * Past this many events the count stops: a reader that follows the log reads
 * only the few events after its position; only one far behind (rebuilding)
 * reads a full page.
 */
export const BEHIND_COUNT_LIMIT = 1000;

export interface Behind {
  /** Matching events after `from`, counted up to BEHIND_COUNT_LIMIT. */
  readonly n: number;
  /** True when the log holds more events after `from` than were examined. */
  readonly more: boolean;
  /** When the oldest matching event after `from` was written (undefined when none). */
  readonly oldest: Date | undefined;
}

export async function behindLog(client: EventStoreDBClient, filter: Filter, from: Position | undefined): Promise<Behind> {
  let n = 0;
  let seen = 0;
  let oldest: Date | undefined;
  // Read to the end of this bounded page: leaving a for-await early leaves the call open.
  for await (const resolved of client.readAll({ direction: FORWARDS, fromPosition: from ?? 'start', maxCount: BEHIND_COUNT_LIMIT + 1 })) {
    const e = resolved.event;
    if (!e || e.type.startsWith('$')) continue;
    if (from !== undefined && e.position.commit === from.commit && e.position.prepare === from.prepare) continue; // the position itself
    seen++;
    if (seen <= BEHIND_COUNT_LIMIT && matchesFilter(filter, e)) {
      n++;
      oldest ??= e.created;
    }
  }
  return { n, more: seen > BEHIND_COUNT_LIMIT, oldest };
}
