import { status } from '@grpc/grpc-js';
import {
  NO_STREAM,
  StreamNotFoundError,
  UnknownError,
  WrongExpectedVersionError,
  type AppendExpectedRevision,
  type EventData,
  type EventStoreDBClient,
  type Position,
} from '@eventstore/db-client';
import { isLeft } from 'fp-ts/Either';
import { decodeRecorded, type EventCodecs, type EventOf, type RecordedDomainEvent } from './events';
import { metrics } from './metrics';
// Appends pass event data as bytes, not base64 (see the file).
import './protobuf-bytes';

/** The revision of a stream's last event, or 'no_stream' when it has none. */
export type StreamRevision = bigint | typeof NO_STREAM;

const describeRevision = (r: AppendExpectedRevision | undefined): string =>
  r === undefined ? 'unknown' : typeof r === 'bigint' ? r.toString() : r;

/**
 * Someone else wrote to the stream since we read it (or a client's
 * If-Match revision is stale). HTTP answers 409 or 412; a command handler may
 * re-read and decide again.
 */
export class ConcurrencyError extends Error {
  override readonly name = 'ConcurrencyError';
  constructor(
    readonly streamId: string,
    readonly expected: AppendExpectedRevision,
    /** The stream's actual revision when the server reports it. */
    readonly actual: StreamRevision | undefined,
  ) {
    super(
      `stream ${streamId} is at revision ${describeRevision(actual)}, expected ${describeRevision(expected)}`,
    );
  }
}

/**
 * The event store refused a write because its disk is full: the embedded
 * store answers RESOURCE_EXHAUSTED (gRPC's code for a file system out of
 * space), which the client passes on as an UnknownError that keeps the code.
 * Nothing was written; the same write may succeed once space is freed.
 */
export function isEventStoreFull(err: unknown): err is UnknownError {
  return err instanceof UnknownError && err.code === status.RESOURCE_EXHAUSTED;
}

export interface AppendOutcome {
  nextExpectedRevision: bigint;
  /** Position in `$all` of the append; a caller waits for projections to pass it. */
  position: Position | undefined;
}

/** Appends atomically with optimistic concurrency; a lost race is a ConcurrencyError. */
export async function appendEvents(
  client: EventStoreDBClient,
  stream: string,
  events: readonly EventData[],
  expectedRevision: AppendExpectedRevision,
): Promise<AppendOutcome> {
  const timer = metrics.appendSeconds.startTimer();
  try {
    const result = await client.appendToStream(stream, [...events], { expectedRevision });
    return { nextExpectedRevision: result.nextExpectedRevision, position: result.position };
  } catch (err) {
    if (err instanceof WrongExpectedVersionError) {
      throw new ConcurrencyError(stream, err.expectedVersion ?? expectedRevision, err.actualVersion);
    }
    throw err;
  } finally {
    timer();
  }
}

/**
 * Visits the decoded events of a stream in order without holding them all.
 * A malformed event is thrown as a MalformedEventError (stream + revision):
 * deciding on a state folded over a corrupt history would be worse.
 */
export async function forEachInStream<C extends EventCodecs>(
  client: EventStoreDBClient,
  stream: string,
  codecs: C,
  visit: (event: RecordedDomainEvent<EventOf<C>>) => void,
): Promise<StreamRevision> {
  let revision: StreamRevision = NO_STREAM;
  let failure: { error: unknown } | undefined;
  try {
    for await (const resolved of client.readStream(stream)) {
      // Leaving a client read early leaves its gRPC call unfinished, and
      // client.dispose() then waits for it forever: drain, fail afterwards.
      if (failure) continue;
      try {
        const decoded = decodeRecorded(resolved, codecs);
        if (isLeft(decoded)) throw decoded.left;
        visit(decoded.right);
        revision = decoded.right.revision;
      } catch (error) {
        failure = { error };
      }
    }
  } catch (err) {
    if (err instanceof StreamNotFoundError) return NO_STREAM;
    throw err;
  }
  if (failure) throw failure.error;
  return revision;
}

export interface StreamRead<E> {
  events: Array<RecordedDomainEvent<E>>;
  revision: StreamRevision;
}

export async function readStream<C extends EventCodecs>(
  client: EventStoreDBClient,
  stream: string,
  codecs: C,
): Promise<StreamRead<EventOf<C>>> {
  const events: Array<RecordedDomainEvent<EventOf<C>>> = [];
  const revision = await forEachInStream(client, stream, codecs, (e) => events.push(e));
  return { events, revision };
}

/** A slice's pure state transition: old state + one event -> new state. */
export type Evolve<S, E> = (state: S, event: E) => S;

export interface AggregateOptions<C extends EventCodecs, S> {
  client: EventStoreDBClient;
  stream: string;
  codecs: C;
  initialState: S;
  evolve: Evolve<S, RecordedDomainEvent<EventOf<C>>>;
}

export async function aggregateStream<C extends EventCodecs, S>(
  opts: AggregateOptions<C, S>,
): Promise<{ state: S; revision: StreamRevision }> {
  let state = opts.initialState;
  const revision = await forEachInStream(opts.client, opts.stream, opts.codecs, (event) => {
    state = opts.evolve(state, event);
  });
  return { state, revision };
}
