// The Redis namespace of a test: a random prefix under `tagtrail-test-`, the
// only keys a test run may touch (test/support/redis-key-guard.js checks it),
// and their removal when the test is done, with the client queues the
// service configured under it (the broker is shared with whatever else runs
// on the machine: a test leaves nothing there either). A test of a service
// losing its Redis data deletes them all at once while the service runs.
import { randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import { createClient, type RedisClientType } from 'redis';
import { RedisKeys } from '../../src/core/redis/keys';
import { queueListKind } from '../../src/queues/listing';

export const TEST_PREFIX_ROOT = 'tagtrail-test-';

export const testRedisPrefix = (): string => `${TEST_PREFIX_ROOT}${randomUUID()}:`;

const REDIS_URL = (): string => process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

const AMQP_URL = (): string => process.env['AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672';

/** Deletes client queues from the broker at `amqpUrl`. Best effort: a test that stopped or replaced its broker leaves nothing there to delete. */
export async function deleteClientQueues(queues: Iterable<string>, amqpUrl = AMQP_URL()): Promise<void> {
  const names = new Set(queues);
  if (names.size === 0) return;
  const conn = await amqp.connect(amqpUrl, { timeout: 2000 }).catch(() => undefined);
  if (conn === undefined) return;
  try {
    const ch = await conn.createChannel();
    for (const q of names) await ch.deleteQueue(q);
  } catch {
    // The broker went away meanwhile: nothing more to do.
  } finally {
    await conn.close().catch(() => undefined);
  }
}

/** The client queues the configuration read model under `prefix` lists (configured, or idle and not yet retired). */
async function configuredQueues(redis: RedisClientType, prefix: string): Promise<string[]> {
  const keys = new RedisKeys(prefix);
  return [...(await redis.hKeys(keys.config(queueListKind.kind))), ...(await redis.hKeys(keys.queueIdleSince))];
}

/**
 * Deletes every key under `prefix`, which must be a test prefix: a typo must
 * not empty a service's namespace. The client queues configured under it go
 * first, from the broker at `amqpUrl`.
 */
export async function removeRedisKeys(prefix: string, url = REDIS_URL(), amqpUrl = AMQP_URL()): Promise<void> {
  const pattern = testKeysPattern(prefix);
  const redis: RedisClientType = createClient({ url });
  await redis.connect();
  try {
    await deleteClientQueues(await configuredQueues(redis, prefix), amqpUrl);
    for await (const keys of redis.scanIterator({ MATCH: pattern, COUNT: 500 })) if (keys.length) await redis.del(keys);
  } finally {
    await redis.quit();
  }
}

/**
 * What a Redis restart without persistence, or an operator flushing the
 * namespace, does to a running service: every key under `prefix` (a test
 * prefix) gone at once, in one UNLINK. Returns the keys it deleted.
 */
export async function loseRedisKeys(prefix: string, url = REDIS_URL()): Promise<string[]> {
  const pattern = testKeysPattern(prefix);
  const redis: RedisClientType = createClient({ url });
  await redis.connect();
  try {
    const all: string[] = [];
    for await (const keys of redis.scanIterator({ MATCH: pattern, COUNT: 1000 })) all.push(...keys);
    if (all.length > 0) await redis.unlink(all);
    return all;
  } finally {
    await redis.quit();
  }
}

/** The SCAN pattern of every key under `prefix`, which must be a test prefix: a typo must not empty a service's namespace. */
function testKeysPattern(prefix: string): string {
  if (!prefix.startsWith(TEST_PREFIX_ROOT) || prefix.length <= TEST_PREFIX_ROOT.length) {
    throw new Error(`refusing to delete keys outside the test namespace: ${JSON.stringify(prefix)}`);
  }
  return `${prefix.replace(/[*?[\]\\]/g, (c) => `\\${c}`)}*`;
}
