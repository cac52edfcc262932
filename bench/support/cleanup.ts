// What a benchmark run leaves behind: its Redis keys (under its own prefix)
// and its data directory. Only those, never anything else in Redis.
import { rmSync } from 'node:fs';
import { createClient } from 'redis';

export async function removeRunState(redisUrl: string, keyPrefix: string, dataDir: string): Promise<void> {
  const redis = createClient({ url: redisUrl });
  await redis.connect();
  for await (const keys of redis.scanIterator({ MATCH: `${keyPrefix}*`, COUNT: 1000 })) if (keys.length) await redis.del(keys);
  await redis.quit();
  rmSync(dataDir, { recursive: true, force: true });
}
