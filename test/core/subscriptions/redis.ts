// A real Redis connection for integration tests, with a key prefix unique to
// the run so parallel runs and leftovers never meet.
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';

export type TestRedis = ReturnType<typeof createClient>;

export const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

export function withRedis(): { readonly client: TestRedis; readonly prefix: string } {
  let client: TestRedis | undefined;
  const prefix = `tagtrail-test-${randomUUID()}:checkpoint:`;
  before(async () => {
    client = createClient({ url: REDIS_URL });
    await client.connect();
  });
  after(async () => {
    if (!client) return;
    const keys = await client.keys(`${prefix}*`);
    if (keys.length) await client.del(keys);
    await client.quit();
  });
  return {
    get client(): TestRedis {
      if (!client) throw new Error('redis not connected');
      return client;
    },
    prefix,
  };
}
