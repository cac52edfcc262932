// Everything a service keeps in Redis under its key prefix, as text: what a
// test searches for a value that must not be stored (a secret in clear).
import { createClient } from 'redis';

/** Every key, and every value of every type (string, hash fields and values, set, sorted set, list), under `prefix`. */
export async function redisDump(prefix: string, url = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379'): Promise<string> {
  const redis = createClient({ url });
  await redis.connect();
  const parts: string[] = [];
  try {
    for await (const keys of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
      for (const key of keys) {
        parts.push(key);
        const type = await redis.type(key);
        if (type === 'hash') parts.push(JSON.stringify(await redis.hGetAll(key)));
        else if (type === 'string') parts.push((await redis.get(key)) ?? '');
        else if (type === 'set') parts.push(JSON.stringify(await redis.sMembers(key)));
        else if (type === 'zset') parts.push(JSON.stringify(await redis.zRange(key, 0, -1)));
        else if (type === 'list') parts.push(JSON.stringify(await redis.lRange(key, 0, -1)));
        else parts.push(`<${type}>`);
      }
    }
  } finally {
    await redis.quit();
  }
  return parts.join('\n');
}
