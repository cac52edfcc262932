// Process configuration, read once from environment variables at start-up.
// `loadConfig` is pure (the environment is passed in) and reports every bad
// variable at once, so an operator fixes a deployment in one round.
import * as E from 'fp-ts/Either';
import { sequenceS } from 'fp-ts/Apply';
import { getSemigroup, type NonEmptyArray } from 'fp-ts/NonEmptyArray';
import { pipe } from 'fp-ts/function';
import {
  envVar,
  esdbConnectionString,
  formatEnvError,
  hostName,
  intInRange,
  intList,
  listOf,
  nonEmptyText,
  textOfAtLeast,
  oneOf,
  positiveNumber,
  urlPathPrefix,
  urlWithScheme,
  type EnvError,
} from './core/env';
import type { JobSettings } from './jobs/settings';
import type { HealthSettings } from './health/settings';
import { DEFAULT_HEALTH_SETTINGS } from './health/settings';
import type { ReadersSettings } from './readers/settings';
import { DEFAULT_READERS_SETTINGS } from './readers/settings';
import type { UpgradeSettings } from './upgrades/settings';

export const ROLES = ['api', 'eventstore', 'engine', 'projections', 'relay', 'jobs', 'readers'] as const;
export type Role = (typeof ROLES)[number];

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type ConfigLogLevel = (typeof LOG_LEVELS)[number];

export type ConfigError = EnvError;

export interface Config {
  readonly http: {
    readonly host: string;
    /** 0 lets the OS pick a free port (the chosen one is logged). */
    readonly port: number;
    /** Prefix of the REST interface, without trailing slash; '' = root. */
    readonly rootPath: string;
  };
  /** Port of the unauthenticated `GET /metrics` listener on HOST; unset = none (docs/operations.md, "Metrics"). */
  readonly metricsPort: number | undefined;
  /** Holds the embedded event store (under `eventstore/`). */
  readonly dataDir: string;
  /** DATA_DIR_MIN_FREE_MB in bytes: a start with less free space in DATA_DIR is refused (0 = not checked; docs/operations.md, "Disk space"). */
  readonly dataDirMinFreeBytes: number;
  readonly eventStore: {
    /** Unset = the embedded event store at host:port. */
    readonly connectionString: string | undefined;
    readonly host: string;
    readonly port: number;
    readonly maxAppendSize: number;
  };
  readonly redisUrl: string;
  /** Namespace of every Redis key, so several deployments (or test runs) can share one Redis. */
  readonly redisKeyPrefix: string;
  readonly amqpUrl: string;
  /** Broker address handed to queue clients as `serverUrl` (unset host = the host of AMQP_URL). */
  readonly amqpPublic: { readonly host: string | undefined; readonly port: number };
  /** AMQP_QUEUE_TYPE: classic (default) or quorum queues for the configured queues (docs/scaling.md, "Quorum queues"). */
  readonly amqpQueueType: 'classic' | 'quorum';
  /** Configured queues without a consumer for `idleMs` are retired by the relay (0 = never); checked every `checkEveryMs` (docs/queues.md). */
  readonly queueRetirement: { readonly idleMs: number; readonly checkEveryMs: number };
  /** Base URL of the EPCIS location identifiers nobody configured, ending with `/` (docs/epcis.md). */
  readonly epcisLocationBaseUrl: string;
  /** Roles this process runs, deduplicated, in the order of ROLES. */
  readonly roles: readonly Role[];
  readonly logLevel: ConfigLogLevel;
  /** Period of the `ingestion` summary line (reports, observations, item changes). */
  readonly logSummaryIntervalMs: number;
  readonly shutdownTimeoutMs: number;
  readonly startupTimeoutMs: number;
  /** Password of the built-in `admin` user on first start; unset = the well-known default. */
  readonly adminPassword: string | undefined;
  /** PAGE_MARKER_KEY: signs page markers (src/core/paging.ts); unset = a random key per process, so markers work only on the api process that issued them. */
  readonly pageMarkerKey: string | undefined;
  /** READER_SECRET_KEY (base64, 32 bytes): seals the secrets tagtrail presents to others (IoT reader passwords, EPCIS credentials, SNMP community); unset: a key file in DATA_DIR (src/core/secret-box.ts). */
  readonly readerSecretKey: string | undefined;
  /** Item engine state snapshots, kept under DATA_DIR/engine-snapshots (docs/item-processing.md, "Snapshots"). */
  readonly engineSnapshots: {
    /** A snapshot after this many appended changes since the last one; 0 = not by count. */
    readonly everyChanges: number;
    /** ... or after this long since the last one, if anything was appended; 0 = not by time. */
    readonly everyMs: number;
  };
  /**
   * Item engine partitions (docs/scaling.md, "Engine partitions"): facilities
   * are spread over `count` partitions; this process may own those in
   * `owned`, each while it holds the partition's lease (`leaseMs`, only used
   * with more than one partition).
   */
  readonly enginePartitions: { readonly count: number; readonly owned: readonly number[]; readonly leaseMs: number };
  /** Job runner time-outs (JOB_ACK_TIMEOUT_SECONDS, JOB_STOP_TIMEOUT_SECONDS; docs/jobs.md). */
  readonly jobs: JobSettings;
  /** Reader health timing (HEALTH_CHECKIN_INTERVAL_SECONDS, HEALTH_STATUS_WINDOW_MINUTES; docs/health.md). */
  readonly health: HealthSettings;
  /** Connections of the readers role (READERS_*; docs/readers.md). */
  readonly readers: ReadersSettings & {
    /** Broker IoT readers publish to (READERS_MQTT_URL). */
    readonly mqttUrl: string;
    /** Topic prefix (READERS_MQTT_TOPIC_PREFIX); unset = tagtrail/<REDIS_KEY_PREFIX>. */
    readonly mqttTopicPrefix: string | undefined;
    /** Address of tagtrail (with its root path) webhook readers post to (READERS_WEBHOOK_BASE_URL). */
    readonly webhookBaseUrl: string | undefined;
  };
  /** UPGRADE_READER_TIMEOUT_SECONDS (docs/upgrades.md). */
  readonly upgrades: UpgradeSettings;
  /** GIT_COMMIT, set by image builds; shown by GET /about/v1/info. */
  readonly gitCommit: string | undefined;
}

// setTimeout silently fires at once for delays above 2^31-1 ms.
const MAX_TIMER_MS = 2_147_483_647;
const port = intInRange(0, 65535, ' (0 picks a free port)');
const positiveMs = intInRange(1, MAX_TIMER_MS);
// Settings in seconds end up as timer milliseconds.
const MAX_TIMER_SECONDS = Math.floor(MAX_TIMER_MS / 1000);
const seconds = intInRange(0, MAX_TIMER_SECONDS);
const readerSeconds = intInRange(1, 86_400);
// A petabyte: any more is a typo, and the bytes stay exact in a double.
const MAX_DATA_DIR_MIN_FREE_MB = 1024 ** 3;
// Far more than a deployment runs engine processes; keeps a typo from meaning a million streams.
const MAX_ENGINE_PARTITIONS = 1024;

// Errors from independent variables accumulate instead of stopping at the first.
const Validation = E.getApplicativeValidation(getSemigroup<ConfigError>());

function field<A, D>(...args: Parameters<typeof envVar<A, D>>): E.Either<NonEmptyArray<ConfigError>, A | D> {
  return pipe(
    envVar(...args),
    E.mapLeft((e): NonEmptyArray<ConfigError> => [e]),
  );
}

const logLevelField = (env: NodeJS.ProcessEnv) => field(env, 'LOG_LEVEL', oneOf(LOG_LEVELS), 'info' as ConfigLogLevel);

/** LOG_LEVEL alone, for the programs beside the service (the simulator) that share its logger. */
export function loadLogLevel(env: NodeJS.ProcessEnv): E.Either<ConfigError[], ConfigLogLevel> {
  return logLevelField(env);
}

/** Every variable, each read on its own: the errors of all of them accumulate. */
const readVariables = (env: NodeJS.ProcessEnv) =>
  sequenceS(Validation)({
    port: field(env, 'PORT', port, 8080),
    host: field(env, 'HOST', hostName, '0.0.0.0'),
    rootPath: field(env, 'ROOT_PATH', urlPathPrefix, '/itemsense'),
    metricsPort: field(env, 'METRICS_PORT', port, undefined),
    dataDir: field(env, 'DATA_DIR', nonEmptyText, './data'),
    dataDirMinFreeMb: field(env, 'DATA_DIR_MIN_FREE_MB', intInRange(0, MAX_DATA_DIR_MIN_FREE_MB), 64),
    esConnectionString: field(env, 'EVENTSTORE_CONNECTION_STRING', esdbConnectionString, undefined, 'url'),
    esHost: field(env, 'EVENTSTORE_HOST', hostName, '127.0.0.1'),
    esPort: field(env, 'EVENTSTORE_PORT', port, 2113),
    esMaxAppendSize: field(env, 'EVENTSTORE_MAX_APPEND_SIZE', intInRange(1, MAX_TIMER_MS), 1_048_576),
    redisUrl: field(env, 'REDIS_URL', urlWithScheme(['redis', 'rediss']), 'redis://127.0.0.1:6379', 'url'),
    redisKeyPrefix: field(env, 'REDIS_KEY_PREFIX', nonEmptyText, 'tagtrail:'),
    amqpUrl: field(env, 'AMQP_URL', urlWithScheme(['amqp', 'amqps']), 'amqp://guest:guest@127.0.0.1:5672', 'url'),
    amqpPublicHost: field(env, 'AMQP_PUBLIC_HOST', hostName, undefined),
    amqpPublicPort: field(env, 'AMQP_PUBLIC_PORT', intInRange(1, 65535), 5672),
    amqpQueueType: field(env, 'AMQP_QUEUE_TYPE', oneOf(['classic', 'quorum'] as const), 'classic' as 'classic' | 'quorum'),
    queueRetireIdleMs: field(env, 'QUEUE_RETIRE_IDLE_MS', intInRange(0, MAX_TIMER_MS), 604_800_000),
    queueIdleCheckMs: field(env, 'QUEUE_IDLE_CHECK_MS', positiveMs, 600_000),
    epcisLocationBaseUrl: field(env, 'EPCIS_LOCATION_BASE_URL', urlWithScheme(['http', 'https']), 'https://tagtrail.example/epcis/', 'url'),
    roles: field(env, 'ROLES', listOf(ROLES), ROLES),
    logLevel: logLevelField(env),
    logSummaryIntervalMs: field(env, 'LOG_SUMMARY_INTERVAL_MS', positiveMs, 60_000),
    shutdownTimeoutMs: field(env, 'SHUTDOWN_TIMEOUT_MS', positiveMs, 10_000),
    startupTimeoutMs: field(env, 'STARTUP_TIMEOUT_MS', positiveMs, 30_000),
    adminPassword: field(env, 'ADMIN_PASSWORD', nonEmptyText, undefined, 'secret'),
    readerSecretKey: field(env, 'READER_SECRET_KEY', nonEmptyText, undefined, 'secret'),
    pageMarkerKey: field(env, 'PAGE_MARKER_KEY', textOfAtLeast(16), undefined, 'secret'),
    snapshotEveryChanges: field(env, 'ENGINE_SNAPSHOT_EVERY_CHANGES', intInRange(0, MAX_TIMER_MS), 100_000),
    snapshotIntervalMs: field(env, 'ENGINE_SNAPSHOT_INTERVAL_MS', intInRange(0, MAX_TIMER_MS), 300_000),
    enginePartitionCount: field(env, 'ENGINE_PARTITIONS', intInRange(1, MAX_ENGINE_PARTITIONS), 1),
    enginePartitionIds: field(env, 'ENGINE_PARTITION_IDS', intList(0, MAX_ENGINE_PARTITIONS - 1), undefined),
    engineLeaseMs: field(env, 'ENGINE_LEASE_MS', intInRange(300, MAX_TIMER_MS), 10_000),
    jobAckSeconds: field(env, 'JOB_ACK_TIMEOUT_SECONDS', seconds, 60),
    jobStopSeconds: field(env, 'JOB_STOP_TIMEOUT_SECONDS', seconds, 10),
    checkinSeconds: field(env, 'HEALTH_CHECKIN_INTERVAL_SECONDS', positiveNumber(86_400), DEFAULT_HEALTH_SETTINGS.checkinIntervalSeconds),
    statusWindowMinutes: field(env, 'HEALTH_STATUS_WINDOW_MINUTES', positiveNumber(525_600), DEFAULT_HEALTH_SETTINGS.statusWindowMinutes),
    keepaliveSeconds: field(env, 'READERS_KEEPALIVE_SECONDS', readerSeconds, DEFAULT_READERS_SETTINGS.keepaliveMs / 1000),
    reconnectMaxSeconds: field(env, 'READERS_RECONNECT_MAX_SECONDS', readerSeconds, DEFAULT_READERS_SETTINGS.reconnectMaxMs / 1000),
    readerLeaseSeconds: field(env, 'READERS_LEASE_SECONDS', readerSeconds, DEFAULT_READERS_SETTINGS.leaseMs / 1000),
    readerHeldObservations: field(env, 'READERS_HELD_OBSERVATIONS', intInRange(1, 10_000_000), DEFAULT_READERS_SETTINGS.heldObservations),
    mqttUrl: field(env, 'READERS_MQTT_URL', urlWithScheme(['mqtt', 'mqtts', 'ws', 'wss']), 'mqtt://127.0.0.1:1883', 'url'),
    mqttTopicPrefix: field(env, 'READERS_MQTT_TOPIC_PREFIX', nonEmptyText, undefined),
    webhookBaseUrl: field(env, 'READERS_WEBHOOK_BASE_URL', urlWithScheme(['http', 'https']), undefined, 'url'),
    upgradeSeconds: field(env, 'UPGRADE_READER_TIMEOUT_SECONDS', intInRange(1, MAX_TIMER_SECONDS), 1800),
    upgradeImageBaseUrl: field(env, 'UPGRADE_IMAGE_BASE_URL', urlWithScheme(['http', 'https']), undefined, 'url'),
    gitCommit: field(env, 'GIT_COMMIT', nonEmptyText, undefined),
  });

type Variables = ReturnType<typeof readVariables> extends E.Either<unknown, infer A> ? A : never;

/** Settings that are only valid together. */
function checkTogether(v: Variables): E.Either<NonEmptyArray<ConfigError>, Variables> {
  const outside = (v.enginePartitionIds ?? []).filter((id) => id >= v.enginePartitionCount);
  return outside.length === 0
    ? E.right(v)
    : E.left<NonEmptyArray<ConfigError>>([{ variable: 'ENGINE_PARTITION_IDS', reason: `partition ${outside.join(', ')} does not exist: ENGINE_PARTITIONS is ${v.enginePartitionCount} (ids 0-${v.enginePartitionCount - 1})` }]);
}

/** The variables in the shape the service uses (units converted, defaults of the settings filled in). */
const toConfig = (v: Variables): Config => ({
  http: { host: v.host, port: v.port, rootPath: v.rootPath },
  metricsPort: v.metricsPort,
  dataDir: v.dataDir,
  dataDirMinFreeBytes: v.dataDirMinFreeMb * 1024 * 1024,
  eventStore: {
    connectionString: v.esConnectionString,
    host: v.esHost,
    port: v.esPort,
    maxAppendSize: v.esMaxAppendSize,
  },
  redisUrl: v.redisUrl,
  redisKeyPrefix: v.redisKeyPrefix,
  amqpUrl: v.amqpUrl,
  amqpPublic: { host: v.amqpPublicHost, port: v.amqpPublicPort },
  amqpQueueType: v.amqpQueueType,
  queueRetirement: { idleMs: v.queueRetireIdleMs, checkEveryMs: v.queueIdleCheckMs },
  epcisLocationBaseUrl: v.epcisLocationBaseUrl.endsWith('/') ? v.epcisLocationBaseUrl : `${v.epcisLocationBaseUrl}/`,
  roles: v.roles,
  logLevel: v.logLevel,
  logSummaryIntervalMs: v.logSummaryIntervalMs,
  shutdownTimeoutMs: v.shutdownTimeoutMs,
  startupTimeoutMs: v.startupTimeoutMs,
  adminPassword: v.adminPassword,
  readerSecretKey: v.readerSecretKey,
  pageMarkerKey: v.pageMarkerKey,
  engineSnapshots: { everyChanges: v.snapshotEveryChanges, everyMs: v.snapshotIntervalMs },
  enginePartitions: {
    count: v.enginePartitionCount,
    owned: v.enginePartitionIds ?? Array.from({ length: v.enginePartitionCount }, (_, i) => i),
    leaseMs: v.engineLeaseMs,
  },
  jobs: { ackTimeoutMs: v.jobAckSeconds * 1000, stopTimeoutMs: v.jobStopSeconds * 1000 },
  health: { ...DEFAULT_HEALTH_SETTINGS, checkinIntervalSeconds: v.checkinSeconds, statusWindowMinutes: v.statusWindowMinutes },
  readers: {
    ...DEFAULT_READERS_SETTINGS,
    keepaliveMs: v.keepaliveSeconds * 1000,
    reconnectMaxMs: v.reconnectMaxSeconds * 1000,
    leaseMs: v.readerLeaseSeconds * 1000,
    heldObservations: v.readerHeldObservations,
    mqttUrl: v.mqttUrl,
    mqttTopicPrefix: v.mqttTopicPrefix,
    webhookBaseUrl: v.webhookBaseUrl,
  },
  upgrades: { readerTimeoutMs: v.upgradeSeconds * 1000, ...(v.upgradeImageBaseUrl === undefined ? {} : { imageBaseUrl: v.upgradeImageBaseUrl }) },
  gitCommit: v.gitCommit,
});

export function loadConfig(env: NodeJS.ProcessEnv): E.Either<ConfigError[], Config> {
  return pipe(readVariables(env), E.chain(checkTogether), E.map(toConfig));
}

export class ConfigurationError extends Error {
  constructor(readonly errors: readonly ConfigError[]) {
    super(`Invalid configuration: ${errors.map(formatEnvError).join('; ')}`);
    this.name = 'ConfigurationError';
  }
}

/** `loadConfig` for entry points: throws a ConfigurationError naming every bad variable. */
export function loadConfigOrThrow(env: NodeJS.ProcessEnv): Config {
  const result = loadConfig(env);
  if (E.isLeft(result)) throw new ConfigurationError(result.left);
  return result.right;
}

export function hasRole(config: Pick<Config, 'roles'>, role: Role): boolean {
  return config.roles.includes(role);
}

/**
 * Where this process finds the event store: the configured connection string,
 * else the embedded store at EVENTSTORE_HOST:EVENTSTORE_PORT (started here or
 * by `npm run eventstore` in another process).
 */
export function eventStoreConnectionString(config: Pick<Config, 'eventStore'>): string {
  const { connectionString, host, port } = config.eventStore;
  if (connectionString !== undefined) return connectionString;
  const h = host.includes(':') ? `[${host}]` : host;
  return `esdb://${h}:${port}?tls=false`;
}
