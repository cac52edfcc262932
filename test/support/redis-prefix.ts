// The Redis namespace of a test: a random prefix under `tagtrail-test-`, the
// only keys a test run may touch (test/support/redis-key-guard.js checks it),
// and their removal when the test is done.
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';

export const TEST_PREFIX_ROOT = 'tagtrail-test-';

export const testRedisPrefix = (): string => `${TEST_PREFIX_ROOT}${randomUUID()}:`;

const REDIS_URL = (): string => process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** Deletes every key under `prefix`, which must be a test prefix: a typo must not empty a service's namespace. */
export async function removeRedisKeys(prefix: string, url = REDIS_URL()): Promise<void> {
  if (!prefix.startsWith(TEST_PREFIX_ROOT) || prefix.length <= TEST_PREFIX_ROOT.length) {
    throw new Error(`refusing to delete keys outside the test namespace: ${JSON.stringify(prefix)}`);
  }
  const redis = createClient({ url });
  await redis.connect();
  try {
    const pattern = `${prefix.replace(/[*?[\]\\]/g, (c) => `\\${c}`)}*`;
    for await (const keys of redis.scanIterator({ MATCH: pattern, COUNT: 500 })) if (keys.length) await redis.del(keys);
  } finally {
    await redis.quit();
  }
}
