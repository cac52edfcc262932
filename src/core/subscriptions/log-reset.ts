// A read model whose checkpoint lies beyond the end of the event log was
// built from another log (the data directory was deleted or the connection
// string changed). Applying the new log on top would mix two histories, so
// the read model is dropped and rebuilt from the start.
import { BACKWARDS, END, type EventStoreDBClient } from '@eventstore/db-client';
import type { RedisClient } from '../redis/connect';
import type { RedisKeys } from '../redis/keys';
import type { Logger } from '../logger';
import { RedisCheckpointStore } from './redis-checkpoint-store';

async function logHead(client: EventStoreDBClient): Promise<bigint> {
  let head = 0n;
  // Read to the end: leaving a for-await early leaves the call open.
  for await (const e of client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 })) {
    head = e.event?.position?.commit ?? head;
  }
  return head;
}

/** Drops `keyPatterns` and the checkpoint when the checkpoint is past the log's end. True if it did. */
export async function resetIfLogWasReplaced(opts: {
  client: EventStoreDBClient;
  redis: RedisClient;
  keys: RedisKeys;
  projection: string;
  keyPatterns: readonly string[];
  logger: Logger;
}): Promise<boolean> {
  const store = new RedisCheckpointStore(opts.redis, opts.keys.checkpointPrefix);
  const at = await store.load(opts.projection);
  if (!at) return false;
  const head = await logHead(opts.client);
  if (at.commit <= head) return false;
  opts.logger.warn('read model is ahead of the event log (was the log replaced?); rebuilding it', {
    projection: opts.projection,
    checkpoint: at.commit.toString(),
    logHead: head.toString(),
  });
  for (const pattern of [...opts.keyPatterns, store.key(opts.projection)]) {
    for await (const keys of opts.redis.scanIterator({ MATCH: pattern, COUNT: 500 })) {
      if (keys.length) await opts.redis.del(keys);
    }
  }
  return true;
}
