import type { Position } from '@eventstore/db-client';
import { isRight } from 'fp-ts/Either';
import { decodeRecorded, hasCodec, type EventCodecs, type EventOf, type MalformedEventError, type RecordedDomainEvent } from '../events';
import type { FeedItem } from './feed';
import { isAfter } from './position';

/** What one take from the feed amounts to, read against the position handled before it. */
export interface Batch<C extends EventCodecs> {
  /** The decoded events of known types, in `$all` order. */
  readonly events: Array<RecordedDomainEvent<EventOf<C>>>;
  /** Events of known types whose codec refused them, in order. */
  readonly malformed: MalformedEventError[];
  /** Where the subscription stands once this batch is handled (past skipped events and filter checkpoints too). */
  readonly reached: Position | undefined;
  /** Events the batch moved over (of any type), for the checkpoint cadence. */
  readonly seen: number;
  /** Events at or before `from` delivered again (ignored). */
  readonly repeated: Position[];
  /** The server said everything stored at subscribe time has been delivered. */
  readonly serverCaughtUp: boolean;
}

/** Decodes `items` that lie after `from`; pure apart from the decoding. */
export function readBatch<C extends EventCodecs>(items: readonly FeedItem[], from: Position | undefined, codecs: C): Batch<C> {
  const events: Array<RecordedDomainEvent<EventOf<C>>> = [];
  const malformed: MalformedEventError[] = [];
  const repeated: Position[] = [];
  let reached = from;
  let seen = 0;
  let serverCaughtUp = false;
  for (const item of items) {
    if (item.kind === 'caughtUp') serverCaughtUp = true;
    else if (item.kind === 'checkpoint') {
      if (isAfter(item.position, reached)) reached = item.position;
    } else if (!isAfter(item.position, reached)) {
      repeated.push(item.position);
    } else {
      reached = item.position;
      seen += 1;
      const type = item.resolved.event?.type;
      if (type === undefined || !hasCodec(codecs, type)) continue;
      const decoded = decodeRecorded(item.resolved, codecs);
      if (isRight(decoded)) events.push(decoded.right);
      else malformed.push(decoded.left);
    }
  }
  return { events, malformed, reached, seen, repeated, serverCaughtUp };
}
