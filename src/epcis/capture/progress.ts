// How far a repository has acknowledged the stream of EPCIS facts, exactly
// enough that a restart resends nothing it acknowledged and skips nothing:
// every fact of the events up to `position`, and then the first `skip` facts
// after it (one ItemsChanged may hold more facts than one document carries,
// so a document may end inside an event). Facts are counted before the
// repository's filter, so changing the filter cannot shift the count. Pure.
import type { Position } from '@eventstore/db-client';
import { comparePositions } from '../../core/subscriptions/position';

export interface Acknowledged {
  /** Every fact of the events up to here (inclusive) is acknowledged; undefined: none yet. */
  readonly position: Position | undefined;
  /** ...and this many facts after it. */
  readonly skip: number;
}

export interface Pending<T> {
  readonly item: T;
  /** The position of the event the fact comes from. */
  readonly position: Position;
  /** Whether it is its event's last fact. */
  readonly lastOfEvent: boolean;
}

/** The facts of `events` not yet acknowledged, in order. A batch holds whole events. */
export function unacknowledged<T>(events: ReadonlyArray<{ readonly position: Position; readonly items: readonly T[] }>, acked: Acknowledged): Pending<T>[] {
  const out: Pending<T>[] = [];
  for (const e of events) {
    if (acked.position !== undefined && comparePositions(e.position, acked.position) <= 0) continue;
    e.items.forEach((item, i) => out.push({ item, position: e.position, lastOfEvent: i === e.items.length - 1 }));
  }
  return out.slice(acked.skip);
}

/** `acked` once `pending[0..through]` (inclusive) are acknowledged too; `pending[0]` is the first fact after `acked`. */
export function advance<T>(acked: Acknowledged, pending: readonly Pending<T>[], through: number): Acknowledged {
  let { position, skip } = acked;
  for (let i = 0; i <= through && i < pending.length; i++) {
    const p = pending[i]!;
    if (p.lastOfEvent) {
      position = p.position;
      skip = 0;
    } else skip += 1;
  }
  return { position, skip };
}

export interface Chunk<T> {
  readonly items: readonly T[];
  /** Index in `pending` of the last fact this chunk accounts for (filtered-out facts before it included). */
  readonly through: number;
}

/** The documents to send: the facts `accept` keeps, at most `max` per document, in order. */
export function chunksOf<T>(pending: readonly Pending<T>[], accept: (item: T) => boolean, max: number): Chunk<T>[] {
  const chunks: Chunk<T>[] = [];
  let items: T[] = [];
  pending.forEach((p, i) => {
    if (!accept(p.item)) return;
    items.push(p.item);
    if (items.length === max) {
      chunks.push({ items, through: i });
      items = [];
    }
  });
  if (items.length > 0) {
    // Accounts up to the last accepted fact; the filtered-out tail is covered when the batch ends.
    let last = pending.length - 1;
    while (last >= 0 && !accept(pending[last]!.item)) last -= 1;
    chunks.push({ items, through: last });
  }
  return chunks;
}
