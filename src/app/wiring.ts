// Builds what the slices share (read model, projection waiter, principal
// store) and, when this process runs the projections role, starts every read
// model under the supervisor that rebuilds them when Redis loses its data.
import { systemClock, type Clock } from '../core/clock';
import { loadSecretKey, secretBox } from '../core/secret-box';
import { redactUrl } from '../core/url';
import path from 'node:path';
import type { EventStoreDBClient } from '@eventstore/db-client';
import type { Config } from '../config';
import { eventStoreConnectionString, hasRole } from '../config';
import type { Logger } from '../core/logger';
import type { Shutdown } from '../core/shutdown';
import type { RedisClient } from '../core/redis/connect';
import { RedisKeys } from '../core/redis/keys';
import { ConfigReadModel } from '../core/resource/readmodel';
import { CONFIG_PROJECTION } from '../../projections/config/projection';
import { CONFIG_READ_MODEL } from '../core/resource/readmodel';
import { superviseReadModels } from '../../projections/supervisor';
import { checkpointWaiter, localWaiter } from '../core/resource/consistency';
import { RedisCheckpointStore } from '../core/subscriptions';
import type { AppDeps, Slice } from '../slice';
import { RedisPrincipalStore } from '../auth/redis-store';
import { READ_MODELS } from './read-models';
import { lastFactoryReset } from '../support/events';
import { ReadModelGate } from '../core/redis/readiness';

import { replaceStoredTokensByIds } from '../../projections/config/token-migration';

/** Bound of the read-your-writes wait after a command. */
export const READ_YOUR_WRITES_MS = 5000;

export interface Wired {
  readonly deps: AppDeps;
  readonly principals: RedisPrincipalStore;
}

/** Where the slices wait for the read models: this process's projections, or another process's. */
type ReadModelWiring = Pick<AppDeps, 'waiter' | 'readModelReady' | 'readModels'>;

/** This process runs the projections role: every read model starts here, under the supervisor. */
async function superviseHere(clients: Clients, keys: RedisKeys, logger: Logger, shutdown: Shutdown): Promise<ReadModelWiring> {
  // Tokens stored by an older version are rewritten under their ids first.
  await replaceStoredTokensByIds(clients.redis, keys, logger);
  const supervisor = superviseReadModels({
    client: clients.eventStore,
    redis: clients.redis,
    keys,
    logger,
    models: READ_MODELS,
    // The streams a factory reset deleted keep their events in $all: a rebuild starts after it.
    rebuildFrom: () => lastFactoryReset(clients.eventStore),
  });
  shutdown.add('read model projections', () => supervisor.stop());
  return {
    waiter: localWaiter(() => supervisor.subscription(CONFIG_READ_MODEL), READ_YOUR_WRITES_MS, logger),
    readModelReady: supervisor.ready(CONFIG_READ_MODEL),
    readModels: supervisor,
  };
}

/** Another process runs the projections role: waits on the checkpoints and readiness it writes to Redis. */
function builtElsewhere(clients: Clients, keys: RedisKeys, logger: Logger): ReadModelWiring {
  const store = new RedisCheckpointStore(clients.redis, keys.checkpointPrefix);
  return {
    waiter: checkpointWaiter(store, CONFIG_PROJECTION, READ_YOUR_WRITES_MS, logger),
    // Another process builds the read models: the first-start bootstrap waits until it has.
    readModelReady: new ReadModelGate(clients.redis, keys).untilReady([CONFIG_READ_MODEL], 200, (why) =>
      logger.info('waiting for the config read model (built by the process running the projections role)', { why }),
    ),
    readModels: { ready: () => Promise.resolve() },
  };
}

/** What the slices share, taken from the configuration and the clients. */
function sharedDeps(slices: readonly Slice[], config: Config, clients: Clients, keys: RedisKeys, logger: Logger, clock: Clock, wiring: ReadModelWiring): AppDeps {
  return {
    client: clients.eventStore,
    readModel: new ConfigReadModel(clients.redis, keys),
    ...wiring,
    redis: clients.redis,
    keys,
    logger,
    clock,
    config,
    adminPassword: config.adminPassword,
    secrets: secretBox(loadSecretKey(path.resolve(config.dataDir), config.readerSecretKey)),
    facilityUsage: slices.flatMap((s) => (s.facilityUsage ? [s.facilityUsage] : [])),
    readerUsage: slices.flatMap((s) => (s.readerUsage ? [s.readerUsage] : [])),
    userGone: slices.flatMap((s) => (s.userGone ? [s.userGone] : [])),
    epcis: { locationBaseUrl: config.epcisLocationBaseUrl },
    broker: { url: config.amqpUrl, publicHost: config.amqpPublic.host, publicPort: config.amqpPublic.port, queueRetirement: config.queueRetirement, queueType: config.amqpQueueType },
    engineSnapshots: { dir: path.resolve(config.dataDir, 'engine-snapshots'), ...config.engineSnapshots },
    maxAppendSize: config.eventStore.maxAppendSize,
    about: {
      startedAt: new Date(),
      roles: config.roles,
      dataDir: path.resolve(config.dataDir),
      rootPath: config.http.rootPath,
      targets: { eventStore: redactUrl(clients.eventStoreTarget ?? eventStoreConnectionString(config)), redis: redactUrl(config.redisUrl), amqp: redactUrl(config.amqpUrl) },
    },
  };
}

interface Clients {
  readonly eventStore: EventStoreDBClient;
  readonly redis: RedisClient;
  /** Where the client connected (the embedded store's real port), for /about. */
  readonly eventStoreTarget?: string;
}

export async function wireSlices(
  slices: readonly Slice[],
  config: Config,
  clients: Clients,
  logger: Logger,
  shutdown: Shutdown,
  clock: Clock = systemClock,
): Promise<Wired> {
  const keys = new RedisKeys(config.redisKeyPrefix);
  const wiring = hasRole(config, 'projections') ? await superviseHere(clients, keys, logger, shutdown) : builtElsewhere(clients, keys, logger);
  const deps = sharedDeps(slices, config, clients, keys, logger, clock, wiring);
  for (const slice of slices) {
    const work = slice.start?.(deps, config.roles);
    if (work) shutdown.add(`${slice.name} background work`, () => work.stop());
  }
  return { deps, principals: new RedisPrincipalStore(clients.redis, keys) };
}
