// Which broker queues are tagtrail's client queues: the ones clients may
// consume (and redeclare). A queue qualifies when its name has the form the
// queues slice gives it (`tagtrail.<kind>.<uuid>`, clientQueueId in
// src/queues/model.ts), its QueueConfigured event
// exists and the relay has not retired it. So a client can neither touch
// other applications' queues on the same broker, nor create new queues under
// tagtrail's names (redeclaring needs `configure`, which would otherwise let
// it create any queue it names), nor recreate a retired queue and wait on it
// for messages that never come.
import type { EventStoreDBClient } from '@eventstore/db-client';
import { systemClock, type Clock } from '../core/clock';
import { readStream } from '../core/eventstore';
import { clientQueueId, queueStream, queueEvents } from '../queues';

// How long a confirmed name is taken as still configured: a queue the relay
// retires (src/queues/retirement.ts) is refused after at most this long. The
// bound on the count keeps a flood of distinct names from growing the map.
const REMEMBER_MS = 10_000;
const MAX_REMEMBERED = 10_000;

/**
 * `name` -> whether tagtrail configured that queue and has not retired it:
 * its stream holds a QueueConfigured naming it and no QueueRetired.
 * Confirmed names are remembered for `rememberMs` (the broker asks on every
 * declare and consume); unknown ones are read again each time.
 */
export function configuredQueueLookup(client: EventStoreDBClient, rememberMs = REMEMBER_MS, clock: Clock = systemClock): (name: string) => Promise<boolean> {
  const known = new Map<string, number>();
  return async (name) => {
    const until = known.get(name);
    if (until !== undefined && until > clock.now().getTime()) return true;
    known.delete(name);
    const id = clientQueueId(name);
    if (id === undefined) return false;
    const { events } = await readStream(client, queueStream(id), queueEvents);
    const configured = events.some((e) => e.type === 'QueueConfigured' && e.data.queue === name);
    const retired = events.some((e) => e.type === 'QueueRetired' && e.data.queue === name);
    if (configured && !retired) {
      if (known.size >= MAX_REMEMBERED) known.clear();
      known.set(name, clock.now().getTime() + rememberMs);
    }
    return configured && !retired;
  };
}

/** Name check only, for processes and tests without an event store. */
export function isClientQueueName(name: string): boolean {
  return clientQueueId(name) !== undefined;
}
