// Idle queues are retired (role relay): every PUT configures a new queue, and
// the relay recreates a queue the broker expired as soon as a message matches
// it (docs/queues.md), so without an end every queue a client ever configured
// would receive every matching message for ever: broker memory and relay CPU
// growing with each client restart. A queue that has had no consumer at any
// check for QUEUE_RETIRE_IDLE_MS (default 7 days) is retired: QueueRetired on
// its stream (the relay's registry drops it when its subscription reaches the
// event, and after a restart from the log), then the broker queue is deleted
// if it is still unused. When a queue was first seen without a consumer is
// kept in Redis, so a relay restart does not reset the clock.
import type * as amqp from 'amqplib';
import type { EventStoreDBClient } from '@eventstore/db-client';
import { isLeft } from 'fp-ts/Either';
import { runCommand } from '../core/command';
import type { Logger } from '../core/logger';
import type { RedisClient } from '../core/redis/connect';
import type { BackgroundWork } from '../slice';
import { onQueue } from './decide';
import { clientQueueId } from './model';

export interface RetirementOptions {
  readonly idleMs: number;
  readonly checkEveryMs: number;
}

export interface IdleQueueRetirerDeps {
  readonly client: EventStoreDBClient;
  readonly redis: RedisClient;
  /** Redis hash: queue name -> epoch ms it was first seen without a consumer. */
  readonly idleKey: string;
  readonly model: amqp.RecoveringChannelModel;
  /** The queues configured and not retired, as the relay's registry has them now. */
  readonly queues: () => readonly string[];
  readonly logger: Logger;
  readonly now?: () => number;
}

/**
 * Runs `use` on a channel of its own: a broker error there (404 for a queue
 * the broker does not have, 406 for a queue a consumer attached to meanwhile)
 * closes only that channel, and `use` answers `otherwise`.
 */
async function onOwnChannel<T>(model: amqp.RecoveringChannelModel, use: (ch: amqp.Channel) => Promise<T>, otherwise: T): Promise<T> {
  const ch = await model.createChannel();
  ch.on('error', () => undefined); // expected, see above
  try {
    return await use(ch);
  } catch {
    return otherwise;
  } finally {
    await ch.close().catch(() => undefined);
  }
}

/** How many consumers `queue` has; 0 when the broker has no such queue. */
const consumersOf = (model: amqp.RecoveringChannelModel, queue: string): Promise<number> =>
  onOwnChannel(model, async (ch) => (await ch.checkQueue(queue)).consumerCount, 0);

/** Deletes `queue` unless a consumer attached meanwhile (or it is gone already). */
const deleteIfUnused = (model: amqp.RecoveringChannelModel, queue: string): Promise<void> =>
  onOwnChannel(model, async (ch) => void (await ch.deleteQueue(queue, { ifUnused: true })), undefined);

/** One check of every queue; returns the queues retired by it. */
export async function checkIdleQueues(deps: IdleQueueRetirerDeps, opts: RetirementOptions): Promise<string[]> {
  const now = (deps.now ?? Date.now)();
  const retired: string[] = [];
  const idleSince = await deps.redis.hGetAll(deps.idleKey);
  for (const queue of deps.queues()) {
    const consumers = await consumersOf(deps.model, queue);
    if (consumers > 0) {
      if (idleSince[queue] !== undefined) await deps.redis.hDel(deps.idleKey, queue);
      continue;
    }
    const since = Number(idleSince[queue]);
    if (!Number.isFinite(since) || since <= 0) {
      await deps.redis.hSet(deps.idleKey, queue, String(now));
      continue;
    }
    if (now - since < opts.idleMs) continue;
    const id = clientQueueId(queue);
    if (id === undefined) continue; // not a name the queues slice gives: not ours to retire
    const data = { queue, reason: 'NO_CONSUMER' as const, idleSince: new Date(since).toISOString(), retiredAt: new Date(now).toISOString() };
    // Refused when the queue is retired already (its owner deleted it meanwhile): nothing more to do.
    const outcome = await runCommand(deps.client, onQueue(id), { type: 'Retire', data });
    if (isLeft(outcome)) {
      await deps.redis.hDel(deps.idleKey, queue);
      continue;
    }
    await deleteIfUnused(deps.model, queue);
    await deps.redis.hDel(deps.idleKey, queue);
    deps.logger.info('queue retired: no consumer', { queue, idleSince: data.idleSince });
    retired.push(queue);
  }
  return retired;
}

/** Checks every `checkEveryMs` until stopped; a failed check is logged and the next one tries again. */
export function startIdleQueueRetirer(deps: IdleQueueRetirerDeps, opts: RetirementOptions): BackgroundWork {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = checkIdleQueues(deps, opts)
        .catch((err: unknown) => deps.logger.warn('idle queue check failed', { err: err instanceof Error ? err.message : String(err) }))
        .finally(schedule);
    }, opts.checkEveryMs);
    timer.unref();
  };
  if (opts.idleMs > 0) schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
