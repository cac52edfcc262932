// The state of every read model for /healthz, read from Redis (any process
// role can answer it): ready, or rebuilding with its progress, or lost (the
// generation marker is gone and the projections role has not started the
// rebuild yet), and how many events of the log it has still to apply (and
// since when: the metrics' projection lag in seconds).
import type { EventStoreDBClient } from '@eventstore/db-client';
import type { RedisClient } from '../src/core/redis/connect';
import type { RedisKeys } from '../src/core/redis/keys';
import { notServable, parseStateDoc } from '../src/core/redis/readiness';
import { positionToString, RedisCheckpointStore } from '../src/core/subscriptions';
import { behindLog } from '../src/core/subscriptions/behind';
import type { RebuildableReadModel } from './read-model';

export interface ReadModelStatus {
  readonly status: 'ready' | 'rebuilding' | 'lost';
  /** Why it is not served (rebuilding, lost). */
  readonly reason?: string;
  /** Where its projection stands (`commit/prepare`). */
  readonly position: string;
  /** Events of the log it reads and has not applied yet; counted up to `BEHIND_COUNT_LIMIT` (behind.ts). */
  readonly behindEvents: number;
  /** True when there are more than `behindEvents`. */
  readonly behindAtLeast?: true;
  /** When the oldest event it has not applied was written (only when behind): its lag in time. */
  readonly behindSince?: string;
  /** Rebuilding: events applied since it started. */
  readonly events?: number;
  readonly since?: string;
}

export async function readModelStatuses(opts: {
  client: EventStoreDBClient;
  redis: RedisClient;
  keys: RedisKeys;
  models: readonly RebuildableReadModel[];
}): Promise<Record<string, ReadModelStatus>> {
  const { client, redis, keys, models } = opts;
  const checkpoints = new RedisCheckpointStore(redis, keys.checkpointPrefix);
  const [generation, docs] = await Promise.all([redis.get(keys.generation), redis.hmGet(keys.readModelStates, models.map((m) => m.name))]);
  const entries = await Promise.all(
    models.map(async (model, i): Promise<[string, ReadModelStatus]> => {
      const doc = parseStateDoc(docs[i]);
      const at = await checkpoints.load(model.projection);
      const late = await behindLog(client, model.filter, at);
      const why = notServable(model.name, generation, doc);
      const status: ReadModelStatus['status'] = why === undefined ? 'ready' : generation !== null && doc?.generation === generation ? 'rebuilding' : 'lost';
      return [
        model.name,
        {
          status,
          ...(why !== undefined ? { reason: why } : {}),
          position: positionToString(at),
          behindEvents: late.n,
          ...(late.more ? { behindAtLeast: true as const } : {}),
          ...(late.oldest ? { behindSince: late.oldest.toISOString() } : {}),
          ...(status === 'rebuilding' && doc ? { events: doc.events ?? 0, since: doc.since } : {}),
        },
      ];
    }),
  );
  return Object.fromEntries(entries);
}
