// The state of every read model for /healthz, read from Redis (any process
// role can answer it): ready, or rebuilding with its progress, or lost (the
// generation marker is gone and the projections role has not started the
// rebuild yet), and how many events of the log it has still to apply.
import { FORWARDS, type EventStoreDBClient, type Position } from '@eventstore/db-client';
import type { RedisClient } from '../src/core/redis/connect';
import type { RedisKeys } from '../src/core/redis/keys';
import { notServable, parseStateDoc } from '../src/core/redis/readiness';
import { matchesFilter, positionToString, RedisCheckpointStore } from '../src/core/subscriptions';
import type { RebuildableReadModel } from './read-model';

export interface ReadModelStatus {
  readonly status: 'ready' | 'rebuilding' | 'lost';
  /** Why it is not served (rebuilding, lost). */
  readonly reason?: string;
  /** Where its projection stands (`commit/prepare`). */
  readonly position: string;
  /** Events of the log it reads and has not applied yet; counted up to `BEHIND_COUNT_LIMIT`. */
  readonly behindEvents: number;
  /** True when there are more than `behindEvents`. */
  readonly behindAtLeast?: true;
  /** Rebuilding: events applied since it started. */
  readonly events?: number;
  readonly since?: string;
}

/**
 * Past this many events the count stops (the probe must stay cheap): a read
 * model that follows the log reads only the few events after its checkpoint;
 * only one far behind (rebuilding) reads a full page.
 */
export const BEHIND_COUNT_LIMIT = 1000;

async function behind(client: EventStoreDBClient, model: RebuildableReadModel, from: Position | undefined): Promise<{ n: number; more: boolean }> {
  let n = 0;
  let seen = 0;
  // Read to the end of this bounded page: leaving a for-await early leaves the call open.
  for await (const resolved of client.readAll({ direction: FORWARDS, fromPosition: from ?? 'start', maxCount: BEHIND_COUNT_LIMIT + 1 })) {
    const e = resolved.event;
    if (!e || e.type.startsWith('$')) continue;
    if (from !== undefined && e.position.commit === from.commit && e.position.prepare === from.prepare) continue; // the checkpoint itself
    seen++;
    if (seen <= BEHIND_COUNT_LIMIT && matchesFilter(model.filter, e)) n++;
  }
  return { n, more: seen > BEHIND_COUNT_LIMIT };
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
      const late = await behind(client, model, at);
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
          ...(status === 'rebuilding' && doc ? { events: doc.events ?? 0, since: doc.since } : {}),
        },
      ];
    }),
  );
  return Object.fromEntries(entries);
}
