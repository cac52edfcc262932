// Starts the roles a process runs (ROLES) and registers a close step for each
// resource as soon as it exists. Start order is the dependency order:
// embedded event store, event-store client, Redis, RabbitMQ, HTTP; shutdown
// runs the reverse.
import { retainLogs } from '../support/log-file';
import path from 'node:path';
import { startEmbeddedEventStore } from '../eventstore/server';
import { StoreDamaged } from '../eventstore/storage/damage';
import type { CorruptRecord } from '../eventstore/storage/records';
import { explainAddressInUse } from '../core/port-in-use';
import { startIngestionSummary } from '../core/ingestion-summary';
import { eventStoreConnectionString, hasRole, type Config, type Role } from '../config';
import type { Logger } from '../core/logger';
import { systemClock, type Clock } from '../core/clock';
import type { Shutdown } from '../core/shutdown';
import { checkHealth, sharedWhileRunning, withTimeout } from '../core/health';
import { readModelStatuses } from '../../projections/read-model-status';
import { READ_MODELS } from './read-models';
import { AGENT_BASE } from '../agents/slice';
import { redisDown } from '../core/redis/readiness';
import { connectRedis, closeRedis, redisHealth, type RedisClient } from '../core/redis/connect';
import type { RedisKeys } from '../core/redis/keys';
import { connectAmqp } from '../core/amqp/connect';
import { createHttpApp, listen } from '../core/http/server';
import { connectEventStore, eventStoreHealth } from './eventStoreClient';
import { wireSlices, type Wired } from './wiring';
import { buildApi, bootstrapSlices } from './api';
import { API_VERSION } from '../core/http/routes';
import { SLICES } from './slices';
import { startJobsWork } from '../jobs/process';
import { PasswordVerifier } from '../auth/password';
import { brokerAuthRouter } from '../brokerauth/routes';
import { loginThrottle } from '../auth/throttle';
import { DefaultPasswordCheck, DEFAULT_PASSWORD_WARNING } from '../users/default-password';
import { BOOTSTRAP_ADMIN_NAME } from '../users/bootstrap';
import { configuredQueueLookup } from '../brokerauth/client-queues';
import { closeLiveStreams } from '../live/slice';
import { consoleRouter } from '../console/static';
import { startProcessMetrics } from '../core/metrics';
import { createMetricsApp } from '../core/http/metrics';
import { startMetricsProbes, type ProbeSources } from './metrics';

const HEALTH_TIMEOUT_MS = 2000;

/** The roles that need the shared clients (everything but the bare event store). */
const CLIENT_ROLES: readonly Role[] = ['api', 'engine', 'projections', 'relay', 'jobs', 'readers'];

export interface Started {
  /** Where this process reaches the event store. */
  readonly eventStoreConnectionString: string;
  /** Set when the api role runs. */
  readonly httpPort?: number;
  /** Set when METRICS_PORT is. */
  readonly metricsPort?: number;
}

export class ShuttingDownError extends Error {
  constructor() {
    super('shutdown requested during start-up');
    this.name = 'ShuttingDownError';
  }
}

/** A signal may arrive while start-up waits on a dependency; this stops opening more. */
type Checkpoint = () => void;

/** The metrics listener: first, so every role's process (the bare event store too) can be scraped, and during start-up. */
async function startMetricsListener(config: Config, logger: Logger, shutdown: Shutdown): Promise<number | undefined> {
  if (config.metricsPort === undefined) return undefined;
  const metricsLogger = logger.child('metrics');
  const server = await explainAddressInUse(listen(createMetricsApp(metricsLogger), config.http.host, config.metricsPort, metricsLogger), 'the metrics listener', 'METRICS_PORT', config.http.host, config.metricsPort);
  shutdown.add('metrics listener', (remainingMs) => server.close(Math.floor(remainingMs / 2)));
  return server.port;
}

/**
 * Damage the embedded store meets while this process starts (the read
 * models' first catch-up reads the whole log) fails the start: the process
 * would otherwise wait for read models that can never catch up. After the
 * start it is logged by the store, and reads that meet it fail.
 */
class StartupDamage {
  private fail: (err: Error) => void = () => undefined;
  private done = false;
  readonly found = new Promise<never>((_, reject) => (this.fail = reject));
  constructor() {
    this.found.catch(() => undefined);
  }
  report(dir: string, err: CorruptRecord): void {
    if (!this.done) this.fail(new StoreDamaged(dir, err.message));
  }
  started(): void {
    this.done = true;
  }
}

/** Role eventstore: the embedded event store, unless an external one is configured. Returns where the event store is reached. */
async function startEventStoreRole(config: Config, logger: Logger, shutdown: Shutdown, clock: Clock, checkpoint: Checkpoint, damage: StartupDamage): Promise<string> {
  const configured = eventStoreConnectionString(config);
  if (!hasRole(config, 'eventstore')) return configured;
  if (config.eventStore.connectionString !== undefined) {
    logger.info('eventstore role skipped: EVENTSTORE_CONNECTION_STRING points at an external event store');
    return configured;
  }
  const dataDir = path.resolve(config.dataDir, 'eventstore');
  const store = await explainAddressInUse(
    startEmbeddedEventStore({
      dataDir,
      host: config.eventStore.host,
      port: config.eventStore.port,
      maxAppendSize: config.eventStore.maxAppendSize,
      logger: logger.child('eventstore'),
      now: () => clock.now().getTime(),
      onCorrupt: (err) => damage.report(dataDir, err),
    }),
    'the embedded event store',
    'EVENTSTORE_PORT',
    config.eventStore.host,
    config.eventStore.port,
  );
  shutdown.add('embedded event store', () => store.close());
  logger.info('embedded event store started', { connectionString: store.connectionString, port: store.port });
  checkpoint();
  return store.connectionString;
}

/** The shared clients, in dependency order: event store, Redis, RabbitMQ. */
async function connectClients(config: Config, connectionString: string, logger: Logger, shutdown: Shutdown, checkpoint: Checkpoint) {
  const eventStore = await connectEventStore(connectionString, logger.child('eventstore-client'), config.startupTimeoutMs);
  shutdown.add('event store client', () => eventStore.dispose());
  checkpoint();
  const redis = await connectRedis(config.redisUrl, logger.child('redis'), config.startupTimeoutMs);
  shutdown.add('redis', () => closeRedis(redis));
  checkpoint();
  const roleNames = config.roles.join(',');
  const amqp = await connectAmqp(config.amqpUrl, logger.child('amqp'), config.startupTimeoutMs, `tagtrail[${roleNames}]`);
  shutdown.add('amqp', () => amqp.close());
  checkpoint();
  return { eventStore, redis, amqp };
}

type Clients = Awaited<ReturnType<typeof connectClients>>;

/** What /healthz and the metrics scrape read: the dependencies' checks and the read models' states. */
type Probes = Pick<ProbeSources, 'dependencies' | 'readModelStates'>;

/**
 * The read models' states for /healthz and the metrics scrape, read once
 * for all the probes that ask while a reading runs.
 *
 * A reading counts, per read model, the events of the log after its
 * checkpoint (up to 1000, with their data). Once Redis lost the read
 * models every checkpoint is gone, so until the rebuild passes them each
 * reading reads from the start of the log for every read model. A probe
 * stops waiting after HEALTH_TIMEOUT_MS, but its reads go on: clients,
 * load balancers and scrapers that asked again at once stacked reading on
 * reading, without bound, on the one event store connection the rebuild
 * reads through too, and the rebuild sat at 0 events applied (every read
 * answering 503) for as long as they kept asking.
 */
function readModelStates(clients: Clients, keys: RedisKeys): Probes['readModelStates'] {
  return sharedWhileRunning(() => readModelStatuses({ client: clients.eventStore, redis: clients.redis, keys, models: READ_MODELS }));
}

/** GET /healthz: the dependencies, every read model's state and the warnings (a default password in use). */
function healthReport(redis: RedisClient, probes: Probes, defaultPassword: DefaultPasswordCheck) {
  return async () => {
    const [dependencyReport, models, warnings] = await Promise.all([
      checkHealth(probes.dependencies, HEALTH_TIMEOUT_MS),
      redis.isReady
        ? withTimeout(probes.readModelStates(), HEALTH_TIMEOUT_MS, 'read model states').catch((err: unknown) => ({
            error: err instanceof Error ? err.message : String(err),
          }))
        : { error: 'Redis is not reachable' },
      defaultPassword.warnings(HEALTH_TIMEOUT_MS),
    ]);
    // Not ready while a read model is not served: a load balancer should
    // send requests elsewhere (they would answer 503 here).
    const allReady = !('error' in models) && Object.values(models).every((m) => m.status === 'ready');
    const report = { ...dependencyReport, status: dependencyReport.status === 'ok' && allReady ? 'ok' : 'down', readModels: models } as const;
    // Warnings do not make the probe fail: the service works, it is just not safe.
    return warnings.length > 0 ? { ...report, warnings } : report;
  };
}

/** Role api: bootstraps the slices, then serves the REST API, broker authentication and the console. Returns the HTTP port. */
async function startApi(config: Config, logger: Logger, shutdown: Shutdown, clients: Clients, wired: Wired, probes: Probes): Promise<number> {
  const { eventStore, redis } = clients;
  const { deps, principals } = wired;
  await bootstrapSlices(SLICES, deps);
  const defaultPassword = new DefaultPasswordCheck((name) => principals.findUser(name));
  if (await defaultPassword.inUse()) logger.warn(DEFAULT_PASSWORD_WARNING, { user: BOOTSTRAP_ADMIN_NAME });
  const verifier = new PasswordVerifier();
  // One throttle for REST and broker logins: failures count across both.
  const throttle = loginThrottle(redis, deps.keys, logger.child('auth'), deps.clock);
  const api = buildApi(SLICES, deps, principals, config.http.rootPath, verifier, throttle);
  const brokerAuth = brokerAuthRouter({ principals, verifier, throttle, isClientQueue: configuredQueueLookup(eventStore), logger: logger.child('broker-auth') });
  const httpLogger = logger.child('http');
  const app = createHttpApp({
    logger: httpLogger,
    rootPath: config.http.rootPath,
    routers: [api.router],
    outerRouters: [brokerAuth, consoleRouter(config.http.rootPath, API_VERSION)],
    // Every request needs Redis (authentication at least): while it is
    // away, answer at once rather than queue commands until it is back.
    // Readers' reports go on: the agent routes authenticate and assign from
    // what the gateway last read (src/agents/last-known.ts); those of them
    // that need Redis answer 503 on their own.
    refuse: (path) => (redis.isReady || path.startsWith(`${config.http.rootPath}${AGENT_BASE}/`) ? undefined : redisDown()),
    health: healthReport(redis, probes, defaultPassword),
  });
  const http = await explainAddressInUse(listen(app, config.http.host, config.http.port, httpLogger), 'the HTTP server', 'PORT', config.http.host, config.http.port);
  // Leave at least half of the budget to the steps behind the HTTP server.
  shutdown.add('http server', (remainingMs) => http.close(Math.floor(remainingMs / 2)));
  // Runs before the server closes (reverse order): open event streams would hold it to its grace period.
  shutdown.add('live event streams', () => closeLiveStreams(deps));
  return http.port;
}

/**
 * `clock`: when events are recorded in the embedded event store and what the item engine takes as now (the
 * system clock; a test moves it on instead of waiting for a compute window to pass).
 */
export async function startTagtrail(config: Config, logger: Logger, shutdown: Shutdown, clock: Clock = systemClock): Promise<Started> {
  const damage = new StartupDamage();
  const started = await Promise.race([startRoles(config, logger, shutdown, clock, damage), damage.found]);
  damage.started();
  return started;
}

async function startRoles(config: Config, logger: Logger, shutdown: Shutdown, clock: Clock, damage: StartupDamage): Promise<Started> {
  const checkpoint: Checkpoint = () => {
    if (shutdown.started) throw new ShuttingDownError();
  };
  // Retained log file for GET /support/v1/logs; added first, so closed last.
  const stopRetainingLogs = await retainLogs(config.dataDir);
  shutdown.add('retained log file', () => stopRetainingLogs());
  logger.info('starting', { roles: config.roles, pid: process.pid, node: process.version });
  startProcessMetrics(config.roles);
  const metricsPort = await startMetricsListener(config, logger, shutdown);
  const connectionString = await startEventStoreRole(config, logger, shutdown, clock, checkpoint, damage);
  const started = { eventStoreConnectionString: connectionString, ...(metricsPort !== undefined ? { metricsPort } : {}) };

  if (!config.roles.some((r) => CLIENT_ROLES.includes(r))) {
    // Only `eventstore`, but an external store is configured: the process
    // would idle (or exit at once with nothing holding the event loop).
    if (config.eventStore.connectionString !== undefined) {
      logger.warn('nothing to run: ROLES=eventstore with EVENTSTORE_CONNECTION_STRING set');
    }
    return started;
  }
  const clients = await connectClients(config, connectionString, logger, shutdown, checkpoint);
  const { eventStore, redis, amqp } = clients;
  if (hasRole(config, 'api') || hasRole(config, 'engine')) {
    const stopSummary = startIngestionSummary(logger.child('ingestion'), config.logSummaryIntervalMs);
    shutdown.add('ingestion summary', async () => stopSummary());
  }

  const wired = await wireSlices(SLICES, config, { eventStore, redis, eventStoreTarget: connectionString }, logger, shutdown, clock);
  checkpoint();
  // The same checks answer /healthz and the metrics' dependency states.
  const dependencies = {
    eventStore: () => eventStoreHealth(eventStore, HEALTH_TIMEOUT_MS),
    redis: () => redisHealth(redis),
    amqp: () => amqp.health(HEALTH_TIMEOUT_MS),
  };
  const probes: Probes = { dependencies, readModelStates: readModelStates(clients, wired.deps.keys) };
  const stopProbes = startMetricsProbes({ roles: config.roles, deps: wired.deps, ...probes });
  shutdown.add('metrics probes', async () => stopProbes());
  // Jobs projection (projections role) and job runner (jobs role).
  const jobsWork = startJobsWork(wired.deps, config.roles);
  if (jobsWork) shutdown.add('jobs runner', () => jobsWork.stop());

  if (!hasRole(config, 'api')) return started;
  const httpPort = await startApi(config, logger, shutdown, clients, wired, probes);
  checkpoint();
  return { eventStoreConnectionString: connectionString, httpPort, ...(metricsPort !== undefined ? { metricsPort } : {}) };
}
