// What a vertical slice contributes to the running process: its routes, what
// of it refers to a facility, first-start bootstrap and background work; and
// AppDeps, what the composition root (src/app) hands every slice. Beside
// src/config.ts rather than in src/core: it names the settings and the
// facility usage, which src/core may not know.
import type { Clock } from './core/clock';
import type { SecretBox } from './core/secret-box';
import type { RouteTable } from './core/http/routes';
import type { ApiError } from './core/http/errors';
import type { ResourceDeps } from './core/resource/routes';
import type { RedisClient } from './core/redis/connect';
import type { RedisKeys } from './core/redis/keys';
import type { Logger } from './core/logger';
import type { EventMetadata } from './core/events';
import type { UsageSource } from './facilities/usage';
import type { Config, Role } from './config';

/**
 * Whether a slice still names a reader definition: the refusal of its
 * deletion, or undefined. Declared here so the reader definitions slice
 * depends on none of the slices that name readers.
 */
export type ReaderUsage = (deps: ResourceDeps, reader: string) => Promise<ApiError | undefined>;

/**
 * What a slice does when a user no longer exists (deleted, or a name about to
 * be taken by a new user): e.g. revoke what was issued to that name. Declared
 * here so the users slice depends on none of the slices that keep per-user
 * things.
 */
export type UserGone = (deps: AppDeps, username: string, metadata: EventMetadata) => Promise<void>;

export interface AppDeps extends ResourceDeps {
  readonly redis: RedisClient;
  readonly keys: RedisKeys;
  readonly logger: Logger;
  /** What the item engine takes as now (the system clock; tests wiring slices by hand may leave it out). */
  readonly clock?: Clock;
  /** The process's settings, parsed and validated once at start (src/config.ts). */
  readonly config: Config;
  /** ADMIN_PASSWORD, if set. */
  readonly adminPassword: string | undefined;
  /** Seals and opens secrets tagtrail presents to readers (IoT passwords); the key is READER_SECRET_KEY or DATA_DIR's. */
  readonly secrets: SecretBox;
  /** Resolves once the config read model has caught up with the log (bootstrap waits for it). */
  readonly readModelReady: Promise<void>;
  /** Ready signals of every read model (src/app/read-models.ts) in the projections role; resolved at once elsewhere. */
  readonly readModels: { ready(name: string): Promise<void> };
  /** Every slice's facilityUsage, for refusing to delete a facility in use. */
  readonly facilityUsage: readonly UsageSource[];
  /** Every slice's readerUsage, for refusing to delete a reader definition in use. */
  readonly readerUsage: readonly ReaderUsage[];
  /** Every slice's userGone, run by the users slice for a user that no longer exists. */
  readonly userGone: readonly UserGone[];
  /** RabbitMQ for the AMQP queues: AMQP_URL (the relay connects) and the address clients are given. */
  readonly broker: {
    readonly url: string;
    readonly publicHost: string | undefined;
    readonly publicPort: number;
    /** Idle configured queues retired by the relay (docs/queues.md, "Idle queues are retired"). */
    readonly queueRetirement: { readonly idleMs: number; readonly checkEveryMs: number };
    /** Type the configured queues are declared as (AMQP_QUEUE_TYPE; docs/scaling.md, "Quorum queues"). */
    readonly queueType: 'classic' | 'quorum';
  };
  /** GS1 EPCIS (docs/epcis.md): the base URL of location identifiers nobody configured. */
  readonly epcis?: { readonly locationBaseUrl: string };
  /** Item engine snapshots: directory (DATA_DIR/engine-snapshots) and how often (ENGINE_SNAPSHOT_*). */
  readonly engineSnapshots: { readonly dir: string; readonly everyChanges: number; readonly everyMs: number };
  /** Bytes the event store takes in one append (EVENTSTORE_MAX_APPEND_SIZE); configuration bodies stay under half of it. */
  readonly maxAppendSize?: number;
  /** What GET /about/v1/info shows of this process (src/about/slice.ts); absent in tests that wire slices by hand. */
  readonly about?: AboutSource;
}

export interface AboutSource {
  readonly startedAt: Date;
  readonly roles: readonly Role[];
  readonly dataDir: string;
  readonly rootPath: string;
  /** Connection targets, passwords already removed. */
  readonly targets: { readonly eventStore: string; readonly redis: string; readonly amqp: string };
}

export interface Slice {
  readonly name: string;
  register(table: RouteTable, deps: AppDeps): void;
  /** What of this slice refers to a facility. */
  readonly facilityUsage?: UsageSource;
  /** A 409 while this slice still names the reader definition, else undefined. */
  readonly readerUsage?: ReaderUsage;
  /** Cleans up what this slice keeps for a user that no longer exists. */
  readonly userGone?: UserGone;
  /** Idempotent first-start work (e.g. the DEFAULT facility); runs in the api role. */
  bootstrap?(deps: AppDeps): Promise<void>;
  /**
   * Background work (subscriptions, timers) of the slice for the roles this
   * process runs; started after wiring, stopped at shutdown before the clients close.
   */
  start?(deps: AppDeps, roles: readonly Role[]): BackgroundWork | undefined;
}

export interface BackgroundWork {
  stop(): Promise<void>;
}
