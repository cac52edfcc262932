// Which broker queues are tagtrail's client queues: the ones clients may
// consume (and redeclare). A queue qualifies when its name has the form the
// queues slice gives it (`tagtrail.<kind>.<uuid>`) AND its QueueConfigured
// event exists: a client can neither touch other applications' queues on the
// same broker nor create new queues under tagtrail's names (redeclaring needs
// `configure`, which would otherwise let it create any queue it names).
import type { EventStoreDBClient } from '@eventstore/db-client';
import { readStream } from '../core/eventstore';
import { QUEUE_KINDS, queueStream } from '../queues/model';
import { queueEvents } from '../queues/events';

export const CLIENT_QUEUE_PREFIX = 'tagtrail.';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const NAME = new RegExp(`^${CLIENT_QUEUE_PREFIX.replace('.', '\\.')}(?:${QUEUE_KINDS.join('|')})\\.(${UUID})$`);

/** The queue id of a name of the client-queue form, else undefined. Pure. */
export function clientQueueId(name: string): string | undefined {
  return NAME.exec(name)?.[1];
}

// Queues are never deleted from the log, so a confirmed name stays confirmed;
// the bound only keeps a flood of distinct names from growing the set forever.
const MAX_REMEMBERED = 10_000;

/**
 * `name` -> whether tagtrail configured that queue: its stream holds a
 * QueueConfigured naming it. Confirmed names are remembered (the broker asks
 * on every declare and consume); unknown ones are read again each time.
 */
export function configuredQueueLookup(client: EventStoreDBClient): (name: string) => Promise<boolean> {
  const known = new Set<string>();
  return async (name) => {
    if (known.has(name)) return true;
    const id = clientQueueId(name);
    if (id === undefined) return false;
    const { events } = await readStream(client, queueStream(id), queueEvents);
    const configured = events.some((e) => e.type === 'QueueConfigured' && e.data.queue === name);
    if (configured) {
      if (known.size >= MAX_REMEMBERED) known.clear();
      known.add(name);
    }
    return configured;
  };
}

/** Name check only, for processes and tests without an event store. */
export function isClientQueueName(name: string): boolean {
  return clientQueueId(name) !== undefined;
}
