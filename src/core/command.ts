import { type EventStoreDBClient, type Position } from '@eventstore/db-client';
import { isLeft, right, type Either } from 'fp-ts/Either';
import { encodeEvent, type EventCodecs, type EventMetadata, type EventOf } from './events';
import { aggregateStream, appendEvents, ConcurrencyError, type Evolve, type StreamRevision } from './eventstore';

/**
 * A slice's pure decision: given the command, the current state and the time
 * (passed in so deciders stay deterministic and testable), either the events
 * to append (possibly none) or a domain error for HTTP to map.
 */
export type Decide<Cmd, S, E, Err> = (command: Cmd, state: S, now: Date) => Either<Err, ReadonlyArray<E>>;

/** The pure core of a command: fold the history, decide, fold the outcome. For given/when/then tests. */
export function decideOnHistory<S, Cmd, E, Err>(
  aggregate: { initial: S; evolve: Evolve<S, E>; decide: Decide<Cmd, S, E, Err> },
  history: ReadonlyArray<E>,
  command: Cmd,
  now: Date,
): Either<Err, { events: ReadonlyArray<E>; state: S }> {
  const before = history.reduce(aggregate.evolve, aggregate.initial);
  const decision = aggregate.decide(command, before, now);
  if (isLeft(decision)) return decision;
  return right({ events: decision.right, state: decision.right.reduce(aggregate.evolve, before) });
}

export interface HandleCommandOptions<C extends EventCodecs, S, Cmd, Err> {
  client: EventStoreDBClient;
  stream: string;
  codecs: C;
  initial: S;
  evolve: Evolve<S, EventOf<C>>;
  decide: Decide<Cmd, S, EventOf<C>, Err>;
  command: Cmd;
  now?: Date;
  metadata?: EventMetadata;
  /**
   * A revision the caller insists on (HTTP If-Match). When the stream is
   * elsewhere the command fails with ConcurrencyError at once: the client's
   * view is stale, so retrying on its behalf would defeat the precondition.
   */
  expectedRevision?: StreamRevision;
  /** How many times to re-read and re-decide after losing a race; default 1. */
  retries?: number;
}

export interface CommandOutcome<S, E> {
  /** The events appended (empty when the decision was a no-op). */
  events: ReadonlyArray<E>;
  /** State after the appended events, e.g. to answer the request with. */
  state: S;
  nextExpectedRevision: StreamRevision;
  /** `$all` position of the append, for waiting on projections; undefined if nothing was appended. */
  position: Position | undefined;
}

/**
 * Read + fold + decide + append with the read revision as expected revision.
 * Losing a race to another writer is normal under load; the decision is
 * re-made on fresh state `retries` times before ConcurrencyError escapes.
 */
export async function handleCommand<C extends EventCodecs, S, Cmd, Err>(
  opts: HandleCommandOptions<C, S, Cmd, Err>,
): Promise<Either<Err, CommandOutcome<S, EventOf<C>>>> {
  const now = opts.now ?? new Date();
  const retries = opts.expectedRevision === undefined ? (opts.retries ?? 1) : 0;
  for (let attempt = 0; ; attempt++) {
    const { state, revision } = await aggregateStream({
      client: opts.client,
      stream: opts.stream,
      codecs: opts.codecs,
      initial: opts.initial,
      evolve: opts.evolve,
    });
    if (opts.expectedRevision !== undefined && opts.expectedRevision !== revision) {
      throw new ConcurrencyError(opts.stream, opts.expectedRevision, revision);
    }
    const decision = opts.decide(opts.command, state, now);
    if (isLeft(decision)) return decision;
    const events = decision.right;
    if (events.length === 0) {
      return right({ events, state, nextExpectedRevision: revision, position: undefined });
    }
    try {
      const encoded = events.map((e) => encodeEvent(opts.codecs, e, opts.metadata));
      const appended = await appendEvents(opts.client, opts.stream, encoded, revision);
      return right({
        events,
        state: events.reduce(opts.evolve, state),
        nextExpectedRevision: appended.nextExpectedRevision,
        position: appended.position,
      });
    } catch (err) {
      if (err instanceof ConcurrencyError && attempt < retries) continue;
      throw err;
    }
  }
}
