// Builds what the slices share (read model, projection waiter, principal
// store) and starts the config projection when this process runs it.
import { redactUrl } from '../core/url';
import path from 'node:path';
import type { EventStoreDBClient } from '@eventstore/db-client';
import type { Config } from '../config';
import { eventStoreConnectionString, hasRole } from '../config';
import type { Logger } from '../core/logger';
import type { Shutdown } from '../core/shutdown';
import type { RedisClient } from '../core/redis/connect';
import { RedisKeys } from '../core/redis/keys';
import { ConfigReadModel } from '../../projections/config/readmodel';
import { CONFIG_PROJECTION, configReadModel, type ConfigProjectionPart } from '../../projections/config/projection';
import { keyPatterns } from '../../projections/read-model';
import { usersPart, tokensPart } from '../../projections/auth/parts';
import { resetIfLogWasReplaced } from '../../projections/config/log-reset';
import { checkpointWaiter, localWaiter, type ProjectionWaiter } from '../core/resource/consistency';
import { RedisCheckpointStore } from '../core/subscriptions';
import type { AppDeps, Slice } from '../core/slice';
import { RedisPrincipalStore } from '../auth/redis-store';
import { replaceStoredTokensByIds } from '../../projections/auth/token-migration';

/** Bound of the read-your-writes wait after a command. */
export const READ_YOUR_WRITES_MS = 5000;

/** Every part of the config projection: users and tokens, and those of the slices. */
export const configParts = (slices: readonly Slice[]): ConfigProjectionPart[] => [usersPart, tokensPart, ...slices.flatMap((s) => s.projectionParts ?? [])];

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
    const model = configReadModel(configParts(slices));
    await resetIfLogWasReplaced({
      client: clients.eventStore,
      redis: clients.redis,
      keys,
      projection: CONFIG_PROJECTION,
      // Everything the config projection writes, and the token last-used times
      // (of tokens of the old log).
      keyPatterns: [...keyPatterns(model, keys), keys.tokenLastUsed],
      logger,
    });
    await replaceStoredTokensByIds(clients.redis, keys, logger);
    const sub = model.start({ client: clients.eventStore, redis: clients.redis, keys, logger: logger.child('projection') });
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
    broker: { url: config.amqpUrl, publicHost: config.amqpPublic.host, publicPort: config.amqpPublic.port, queueRetirement: config.queueRetirement },
    engineSnapshots: { dir: path.resolve(config.dataDir, 'engine-snapshots'), ...config.engineSnapshots },
    about: {
      startedAt: new Date(),
      roles: config.roles,
      dataDir: path.resolve(config.dataDir),
      rootPath: config.http.rootPath,
      targets: { eventStore: redactUrl(eventStoreConnectionString(config)), redis: redactUrl(config.redisUrl), amqp: redactUrl(config.amqpUrl) },
    },
  };
  for (const slice of slices) {
    const work = slice.start?.(deps, config.roles);
    if (work) shutdown.add(`${slice.name} background work`, () => work.stop());
  }
  return { deps, principals: new RedisPrincipalStore(clients.redis, keys) };
}
