// Process configuration, read once from environment variables at start-up.
// `loadConfig` is pure (the environment is passed in) and reports every bad
// variable at once, so an operator fixes a deployment in one round.
import * as E from 'fp-ts/Either';
import { sequenceS } from 'fp-ts/Apply';
import { getSemigroup, type NonEmptyArray } from 'fp-ts/NonEmptyArray';
import { pipe } from 'fp-ts/function';
import {
  envVar,
  formatEnvError,
  hostName,
  intInRange,
  listOf,
  nonEmptyText,
  oneOf,
  urlPathPrefix,
  urlWithScheme,
  type EnvError,
} from './core/env';

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
  /** READER_SECRET_KEY (base64, 32 bytes): seals IoT reader passwords; unset: a key file in DATA_DIR (src/core/secret-box.ts). */
  readonly readerSecretKey: string | undefined;
  /** Item engine state snapshots, kept under DATA_DIR/engine-snapshots (docs/item-processing.md, "Snapshots"). */
  readonly engineSnapshots: {
    /** A snapshot after this many appended changes since the last one; 0 = not by count. */
    readonly everyChanges: number;
    /** ... or after this long since the last one, if anything was appended; 0 = not by time. */
    readonly everyMs: number;
  };
}

// setTimeout silently fires at once for delays above 2^31-1 ms.
const MAX_TIMER_MS = 2_147_483_647;
const port = intInRange(0, 65535, ' (0 picks a free port)');
const positiveMs = intInRange(1, MAX_TIMER_MS);

// Errors from independent variables accumulate instead of stopping at the first.
const Validation = E.getApplicativeValidation(getSemigroup<ConfigError>());

function field<A, D>(...args: Parameters<typeof envVar<A, D>>): E.Either<NonEmptyArray<ConfigError>, A | D> {
  return pipe(
    envVar(...args),
    E.mapLeft((e): NonEmptyArray<ConfigError> => [e]),
  );
}

export function loadConfig(env: NodeJS.ProcessEnv): E.Either<ConfigError[], Config> {
  return pipe(
    sequenceS(Validation)({
      port: field(env, 'PORT', port, 8080),
      host: field(env, 'HOST', hostName, '0.0.0.0'),
      rootPath: field(env, 'ROOT_PATH', urlPathPrefix, '/itemsense'),
      metricsPort: field(env, 'METRICS_PORT', port, undefined),
      dataDir: field(env, 'DATA_DIR', nonEmptyText, './data'),
      esConnectionString: field(
        env,
        'EVENTSTORE_CONNECTION_STRING',
        urlWithScheme(['esdb', 'esdb+discover']),
        undefined,
        'url',
      ),
      esHost: field(env, 'EVENTSTORE_HOST', hostName, '127.0.0.1'),
      esPort: field(env, 'EVENTSTORE_PORT', port, 2113),
      esMaxAppendSize: field(env, 'EVENTSTORE_MAX_APPEND_SIZE', intInRange(1, MAX_TIMER_MS), 1_048_576),
      redisUrl: field(env, 'REDIS_URL', urlWithScheme(['redis', 'rediss']), 'redis://127.0.0.1:6379', 'url'),
      redisKeyPrefix: field(env, 'REDIS_KEY_PREFIX', nonEmptyText, 'tagtrail:'),
      amqpUrl: field(env, 'AMQP_URL', urlWithScheme(['amqp', 'amqps']), 'amqp://guest:guest@127.0.0.1:5672', 'url'),
      amqpPublicHost: field(env, 'AMQP_PUBLIC_HOST', hostName, undefined),
      amqpPublicPort: field(env, 'AMQP_PUBLIC_PORT', intInRange(1, 65535), 5672),
      queueRetireIdleMs: field(env, 'QUEUE_RETIRE_IDLE_MS', intInRange(0, MAX_TIMER_MS), 604_800_000),
      queueIdleCheckMs: field(env, 'QUEUE_IDLE_CHECK_MS', positiveMs, 600_000),
      epcisLocationBaseUrl: field(env, 'EPCIS_LOCATION_BASE_URL', urlWithScheme(['http', 'https']), 'https://tagtrail.example/epcis/', 'url'),
      roles: field(env, 'ROLES', listOf(ROLES), ROLES),
      logLevel: field(env, 'LOG_LEVEL', oneOf(LOG_LEVELS), 'info' as ConfigLogLevel),
      logSummaryIntervalMs: field(env, 'LOG_SUMMARY_INTERVAL_MS', positiveMs, 60_000),
      shutdownTimeoutMs: field(env, 'SHUTDOWN_TIMEOUT_MS', positiveMs, 10_000),
      startupTimeoutMs: field(env, 'STARTUP_TIMEOUT_MS', positiveMs, 30_000),
      adminPassword: field(env, 'ADMIN_PASSWORD', nonEmptyText, undefined, 'secret'),
      readerSecretKey: field(env, 'READER_SECRET_KEY', nonEmptyText, undefined, 'secret'),
      snapshotEveryChanges: field(env, 'ENGINE_SNAPSHOT_EVERY_CHANGES', intInRange(0, MAX_TIMER_MS), 100_000),
      snapshotIntervalMs: field(env, 'ENGINE_SNAPSHOT_INTERVAL_MS', intInRange(0, MAX_TIMER_MS), 300_000),
    }),
    E.map(
      (v): Config => ({
        http: { host: v.host, port: v.port, rootPath: v.rootPath },
        metricsPort: v.metricsPort,
        dataDir: v.dataDir,
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
        queueRetirement: { idleMs: v.queueRetireIdleMs, checkEveryMs: v.queueIdleCheckMs },
        epcisLocationBaseUrl: v.epcisLocationBaseUrl.endsWith('/') ? v.epcisLocationBaseUrl : `${v.epcisLocationBaseUrl}/`,
        roles: v.roles,
        logLevel: v.logLevel,
        logSummaryIntervalMs: v.logSummaryIntervalMs,
        shutdownTimeoutMs: v.shutdownTimeoutMs,
        startupTimeoutMs: v.startupTimeoutMs,
        adminPassword: v.adminPassword,
        readerSecretKey: v.readerSecretKey,
        engineSnapshots: { everyChanges: v.snapshotEveryChanges, everyMs: v.snapshotIntervalMs },
      }),
    ),
  );
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
