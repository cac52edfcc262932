// Builds what the slices share (read model, projection waiter, principal
// store) and starts the config projection when this process runs it.
import type { EventStoreDBClient } from '@eventstore/db-client';
import type { Config } from '../config';
import { hasRole } from '../config';
import type { Logger } from '../core/logger';
import type { Shutdown } from '../core/shutdown';
import type { RedisClient } from '../core/redis/connect';
import { RedisKeys } from '../core/redis/keys';
import { ConfigReadModel } from '../../projections/config/readmodel';
import { CONFIG_PROJECTION, startConfigProjection } from '../../projections/config/projection';
import { usersPart, tokensPart } from '../../projections/auth/parts';
import { resetIfLogWasReplaced } from '../../projections/config/log-reset';
import { checkpointWaiter, localWaiter, type ProjectionWaiter } from '../core/resource/consistency';
import { RedisCheckpointStore } from '../core/subscriptions';
import type { AppDeps, Slice } from '../core/slice';
import { RedisPrincipalStore } from '../auth/redis-store';

/** Bound of the read-your-writes wait after a command. */
export const READ_YOUR_WRITES_MS = 5000;

export interface Wired {
  readonly deps: AppDeps;
  readonly principals: RedisPrincipalStore;
}

export async function wireSlices(
  slices: readonly Slice[],
  config: Config,
  clients: { eventStore: EventStoreDBClient; redis: RedisClient },
  logger: Logger,
  shutdown: Shutdown,
): Promise<Wired> {
  const keys = new RedisKeys(config.redisKeyPrefix);
  const readModel = new ConfigReadModel(clients.redis, keys);
  let waiter: ProjectionWaiter;
  let readModelReady: Promise<void> = Promise.resolve();
  if (hasRole(config, 'projections')) {
    const parts = [usersPart, tokensPart, ...slices.flatMap((s) => s.projectionParts ?? [])];
    await resetIfLogWasReplaced({
      client: clients.eventStore,
      redis: clients.redis,
      keys,
      projection: CONFIG_PROJECTION,
      // Everything the config projection writes: config hashes, the auth read models,
      // agent secrets and pending agent commands (projections/agents).
      keyPatterns: [`${keys.base}v1:config:*`, `${keys.base}v1:tokens*`, keys.tokenLastUsed, `${keys.base}v1:agents:secrets`, `${keys.base}v1:agents:commands:*`],
      logger,
    });
    const sub = startConfigProjection({ client: clients.eventStore, redis: clients.redis, keys, parts, logger: logger.child('projection') });
    shutdown.add('config projection', () => sub.stop());
    waiter = localWaiter(sub, READ_YOUR_WRITES_MS, logger);
    readModelReady = sub.caughtUp;
  } else {
    const store = new RedisCheckpointStore(clients.redis, keys.checkpointPrefix);
    waiter = checkpointWaiter(store, CONFIG_PROJECTION, READ_YOUR_WRITES_MS, logger);
  }
  const deps: AppDeps = {
    client: clients.eventStore,
    readModel,
    waiter,
    redis: clients.redis,
    keys,
    logger,
    adminPassword: config.adminPassword,
    readModelReady,
    facilityUsage: slices.flatMap((s) => (s.facilityUsage ? [s.facilityUsage] : [])),
  };
  for (const slice of slices) {
    const work = slice.start?.(deps, config.roles);
    if (work) shutdown.add(`${slice.name} background work`, () => work.stop());
  }
  return { deps, principals: new RedisPrincipalStore(clients.redis, keys) };
}
