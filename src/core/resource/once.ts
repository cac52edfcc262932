// First-start documents (the DEFAULT facility, the factory defaults): written
// as the Created event of a stream that has never existed, so a start that
// finds it (or a user's delete of it) writes nothing: after a user deletes
// such a document it stays deleted. A factory reset soft-deletes the stream,
// after which the next bootstrap writes it again.
import { WrongExpectedVersionError, type EventStoreDBClient, type Position } from '@eventstore/db-client';
import { encodeEvent } from '../events';
import { eventNames, resourceEventCodecs, streamOf, type ResourceKind } from './kind';

/** The position of the append, or undefined when the stream already existed. */
export async function createResourceOnce<R>(client: EventStoreDBClient, kind: ResourceKind<R>, name: string, resource: R): Promise<Position | undefined> {
  const event = encodeEvent(resourceEventCodecs(kind), {
    type: eventNames(kind as ResourceKind<unknown>).created,
    data: { name, resource },
  }, { user: 'system' });
  try {
    const result = await client.appendToStream(streamOf(kind as ResourceKind<unknown>, name), event, { expectedRevision: 'no_stream' });
    return result.position;
  } catch (err) {
    if (err instanceof WrongExpectedVersionError) return undefined;
    throw err;
  }
}
