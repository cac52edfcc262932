// A command decided on the last event of its stream: for streams of facts
// that grow without end (a reader's check-ins, the engine's clock, item reset
// requests), where runCommand's fold of the whole stream would cost more with
// every event. The decision sees the last event (undefined for an empty
// stream) and the events it returns are appended with that event's revision,
// so a writer that came in between makes the append fail and the command is
// decided again on the new last event: still one way to append, a decision
// with an expected revision, only on less history.
import { BACKWARDS, END, NO_STREAM, StreamNotFoundError, type EventStoreDBClient } from '@eventstore/db-client';
import { isLeft } from 'fp-ts/Either';
import { decodeRecorded, encodeEvent, type EventCodecs, type EventMetadata, type EventOf, type RecordedDomainEvent } from './events';
import { appendEvents, ConcurrencyError, type AppendOutcome, type StreamRevision } from './eventstore';

export interface LastEventCommand<C extends EventCodecs> {
  readonly stream: string;
  readonly codecs: C;
  /** The events to append given the stream's last event (none: nothing is appended). Pure. */
  readonly decide: (last: RecordedDomainEvent<EventOf<C>> | undefined) => ReadonlyArray<EventOf<C>>;
  readonly metadata?: EventMetadata;
  /** Ids of the events appended, in order (e.g. a request id already answered to a client); default new ones. */
  readonly ids?: readonly string[];
  /** Decisions again after losing a race; default 3. Undefined outcome: decided on nothing to append. */
  readonly retries?: number;
}

/** A stream's last event, decoded, and its revision (NO_STREAM and none for a stream that does not exist). */
export async function lastEventOf<C extends EventCodecs>(client: EventStoreDBClient, stream: string, codecs: C): Promise<{ revision: StreamRevision; event: RecordedDomainEvent<EventOf<C>> | undefined }> {
  let last: { revision: StreamRevision; event: RecordedDomainEvent<EventOf<C>> | undefined } = { revision: NO_STREAM, event: undefined };
  let failure: unknown;
  try {
    // Read to the end of the one-event read: leaving a for-await early leaves the call open.
    for await (const resolved of client.readStream(stream, { direction: BACKWARDS, fromRevision: END, maxCount: 1 })) {
      const decoded = decodeRecorded(resolved, codecs);
      if (isLeft(decoded)) failure = decoded.left;
      else last = { revision: decoded.right.revision, event: decoded.right };
    }
  } catch (err) {
    if (err instanceof StreamNotFoundError) return last;
    throw err;
  }
  if (failure !== undefined) throw failure;
  return last;
}

/** Decides on the stream's last event and appends with its revision; the outcome, or undefined when nothing was to be appended. */
export async function runOnLastEvent<C extends EventCodecs>(client: EventStoreDBClient, command: LastEventCommand<C>): Promise<AppendOutcome | undefined> {
  const retries = command.retries ?? 3;
  for (let attempt = 0; ; attempt++) {
    const last = await lastEventOf(client, command.stream, command.codecs);
    const events = command.decide(last.event);
    if (events.length === 0) return undefined;
    const encoded = events.map((e, i) => encodeEvent(command.codecs, e, command.metadata, command.ids?.[i]));
    try {
      return await appendEvents(client, command.stream, encoded, last.revision);
    } catch (err) {
      if (!(err instanceof ConcurrencyError) || attempt >= retries) throw err;
    }
  }
}
