// Redis's own account of its memory, for the read-model size per item.
// Redis is shared: other users' writes during a measurement count too.

/** Anything with the redis client's `info` command (both client flavours the benches use). */
interface InfoClient {
  info(section: string): Promise<string>;
}

/** Redis's used_memory (bytes). */
export async function usedMemory(redis: InfoClient): Promise<number> {
  const info = await redis.info('memory');
  return Number(/^used_memory:(\d+)/m.exec(info)?.[1] ?? NaN);
}
