// First-start documents (the DEFAULT facility, the factory defaults): written
// as the Created event of a stream that has never existed, so a start that
// finds it (or a user's delete of it) writes nothing: after a user deletes
// such a document it stays deleted. A factory reset soft-deletes the stream,
// after which the next bootstrap writes it again. Decided on the stream
// itself (runCommand), like every other write.
import { right } from 'fp-ts/Either';
import type { EventStoreDBClient, Position } from '@eventstore/db-client';
import { runCommand, type CommandStream } from '../command';
import type { EventOf } from '../events';
import { eventNames, resourceEventCodecs, streamOf, type ResourceKind } from './kind';

type Codecs = ReturnType<typeof resourceEventCodecs>;

/** Whether the stream has any event: one that has, whatever it holds, is left alone. */
const onceStream = <R>(kind: ResourceKind<R>, name: string): CommandStream<Codecs, EventOf<Codecs>, boolean, never> => ({
  stream: streamOf(kind as ResourceKind<unknown>, name),
  codecs: resourceEventCodecs(kind),
  decider: {
    initialState: false,
    evolve: () => true,
    decide: (event, exists) => right(exists ? [] : [event]),
  },
  // Two processes starting at once: the loser re-reads, finds the stream and writes nothing.
  retries: 1,
});

/** The position of the append, or undefined when the stream already existed. */
export async function createResourceOnce<R>(client: EventStoreDBClient, kind: ResourceKind<R>, name: string, resource: R): Promise<Position | undefined> {
  const created = { type: eventNames(kind as ResourceKind<unknown>).created, data: { name, resource } };
  const outcome = await runCommand(client, onceStream(kind, name), created, { metadata: { user: 'system' } });
  return outcome._tag === 'Right' ? outcome.right.position : undefined;
}
