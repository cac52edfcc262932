import { type EventStoreDBClient, type Position } from '@eventstore/db-client';
import { isLeft, right, type Either } from 'fp-ts/Either';
import { encodeEvent, type EventCodecs, type EventMetadata, type EventOf } from './events';
import { aggregateStream, appendEvents, ConcurrencyError, type Evolve, type StreamRevision } from './eventstore';
import { conflict } from './http/errors';

/**
 * A slice's pure decision: given the command, the current state and the time
 * (passed in so deciders stay deterministic and testable), either the events
 * to append (possibly none) or a domain error for HTTP to map.
 */
export type Decide<Cmd, S, E, Err> = (command: Cmd, state: S, now: Date) => Either<Err, ReadonlyArray<E>>;

/**
 * Everything a slice decides with, and nothing about storage: the state
 * before the first event, how an event changes the state, and the decision.
 * The same value drives given/when/then tests (decideOnHistory) and the
 * real thing (runCommand).
 */
export interface Decider<Cmd, S, E, Err> {
  readonly initialState: S;
  readonly evolve: Evolve<S, E>;
  readonly decide: Decide<Cmd, S, E, Err>;
}

/** The pure core of a command: fold the history, decide, fold the outcome. For given/when/then tests. */
export function decideOnHistory<S, Cmd, E, Err>(
  decider: Decider<Cmd, S, E, Err>,
  history: ReadonlyArray<E>,
  command: Cmd,
  now: Date,
): Either<Err, { events: ReadonlyArray<E>; state: S }> {
  const before = history.reduce(decider.evolve, decider.initialState);
  const decision = decider.decide(command, before, now);
  if (isLeft(decision)) return decision;
  return right({ events: decision.right, state: decision.right.reduce(decider.evolve, before) });
}

/** Where a command runs: one stream, the codecs of its events, and its decider. */
export interface CommandStream<C extends EventCodecs, Cmd, S, Err> {
  readonly stream: string;
  readonly codecs: C;
  readonly decider: Decider<Cmd, S, EventOf<C>, Err>;
  /**
   * How many times to re-read and re-decide after losing a race; default 1.
   * Streams many writers hit at once (a job's acknowledgements) need more.
   */
  readonly retries?: number;
  /**
   * The 409 message when the race is still lost after the retries (or the
   * caller's expected revision is stale): runCommand throws it as an
   * ApiError. Without it the ConcurrencyError itself escapes, for callers
   * outside HTTP.
   */
  readonly conflict?: string;
}

export interface RunCommandOptions {
  /** Time handed to the decider; default now. */
  readonly now?: Date;
  readonly metadata?: EventMetadata;
  /**
   * A revision the caller insists on (HTTP If-Match). When the stream is
   * elsewhere the command fails at once: the client's view is stale, so
   * retrying on its behalf would defeat the precondition.
   */
  readonly expectedRevision?: StreamRevision;
  /**
   * Read-your-writes: after an append, wait until this read model has
   * applied it, so a read right after the command sees the change.
   */
  readonly waiter?: { waitFor(position: Position | undefined): Promise<void> };
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
 * The one way a command runs: read + fold + decide + append with the read
 * revision as expected revision. Losing a race to another writer is normal
 * under load; the decision is re-made on fresh state `retries` times before
 * the conflict escapes. A refusal comes back as Left and appends nothing.
 */
export async function runCommand<C extends EventCodecs, Cmd, S, Err>(
  client: EventStoreDBClient,
  target: CommandStream<C, Cmd, S, Err>,
  command: Cmd,
  opts: RunCommandOptions = {},
): Promise<Either<Err, CommandOutcome<S, EventOf<C>>>> {
  try {
    const outcome = await decideAndAppend(client, target, command, opts);
    if (!isLeft(outcome) && opts.waiter) await opts.waiter.waitFor(outcome.right.position);
    return outcome;
  } catch (err) {
    if (err instanceof ConcurrencyError && target.conflict !== undefined) throw conflict(target.conflict);
    throw err;
  }
}

async function decideAndAppend<C extends EventCodecs, Cmd, S, Err>(
  client: EventStoreDBClient,
  target: CommandStream<C, Cmd, S, Err>,
  command: Cmd,
  opts: RunCommandOptions,
): Promise<Either<Err, CommandOutcome<S, EventOf<C>>>> {
  const { stream, codecs, decider } = target;
  const now = opts.now ?? new Date();
  const retries = opts.expectedRevision === undefined ? (target.retries ?? 1) : 0;
  for (let attempt = 0; ; attempt++) {
    const { state, revision } = await aggregateStream({ client, stream, codecs, initialState: decider.initialState, evolve: decider.evolve });
    if (opts.expectedRevision !== undefined && opts.expectedRevision !== revision) {
      throw new ConcurrencyError(stream, opts.expectedRevision, revision);
    }
    const decision = decider.decide(command, state, now);
    if (isLeft(decision)) return decision;
    const events = decision.right;
    if (events.length === 0) {
      return right({ events, state, nextExpectedRevision: revision, position: undefined });
    }
    try {
      const encoded = events.map((e) => encodeEvent(codecs, e, opts.metadata));
      const appended = await appendEvents(client, stream, encoded, revision);
      return right({
        events,
        state: events.reduce(decider.evolve, state),
        nextExpectedRevision: appended.nextExpectedRevision,
        position: appended.position,
      });
    } catch (err) {
      if (err instanceof ConcurrencyError && attempt < retries) continue;
      throw err;
    }
  }
}
