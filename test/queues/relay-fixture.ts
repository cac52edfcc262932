// Shared pieces of the in-process relay tests (start-retry, window, lease,
// retirement): a queue configuration as the API records it, a logger that
// keeps the lines, and the clean-up of a test's Redis namespace.
import { NO_STREAM, type EventStoreDBClient } from '@eventstore/db-client';
import { appendEvents } from '../../src/core/eventstore';
import { encodeEvent } from '../../src/core/events';
import type { Logger, LogFields } from '../../src/core/logger';
import type { RedisClient } from '../../src/core/redis/connect';
import type { RedisKeys } from '../../src/core/redis/keys';
import { queueEvents, type QueueConfiguredData } from '../../src/queues/events';
import { queueName, queueStream } from '../../src/queues/model';

/** Records QueueConfigured for a new item queue receiving EPCs starting with `epcPrefix`; returns its name and id. */
export async function configureItemQueue(client: EventStoreDBClient, epcPrefix: string): Promise<{ queue: string; id: string }> {
  const id = crypto.randomUUID();
  const queue = queueName('items', id);
  const data = { kind: 'items', queue, deliveryMode: 'PERSISTENT', filter: { epc: epcPrefix }, configuredAt: new Date().toISOString(), user: 'admin' } as QueueConfiguredData;
  await appendEvents(client, queueStream(id), [encodeEvent(queueEvents, { type: 'QueueConfigured', data })], NO_STREAM);
  return { queue, id };
}

export interface LogLine {
  readonly level: string;
  readonly msg: string;
  readonly fields: LogFields;
}

/** Records every line (all components), so a test can read the relay's warnings. */
export function recordingLogger(lines: LogLine[]): Logger {
  const log = (level: string) => (msg: string, fields: LogFields = {}) => void lines.push({ level, msg, fields });
  const logger: Logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error'), child: () => logger };
  return logger;
}

/** Deletes every key of the test's namespace and closes the client. */
export async function dropKeysAndQuit(redis: RedisClient | undefined, keys: RedisKeys): Promise<void> {
  if (!redis) return;
  for await (const found of redis.scanIterator({ MATCH: keys.pattern, COUNT: 500 })) if (found.length) await redis.del(found);
  await redis.quit();
}

/** Stops everything in `running`, one after the other, and empties it. */
export async function stopInOrder(running: Array<{ stop(): Promise<void> }>): Promise<void> {
  for (const r of running.splice(0)) await r.stop();
}
