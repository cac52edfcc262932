// What every Redis read model in projections/ declares once, so that the
// service starts and watches it (projections/supervisor.ts) and `npm run rebuild`
// rebuilds it (projections/rebuild.ts) from the same definition.
import type { EventStoreDBClient, Filter } from '@eventstore/db-client';
import type { RedisClient } from '../src/core/redis/connect';
import type { RedisKeys } from '../src/core/redis/keys';
import type { Logger } from '../src/core/logger';
import type { RunningSubscription } from '../src/core/subscriptions';

export interface StartReadModelOptions {
  readonly client: EventStoreDBClient;
  readonly redis: RedisClient;
  /** The namespace to write under: the live one, or a rebuild's side namespace. */
  readonly keys: RedisKeys;
  readonly logger: Logger;
  /**
   * Called after each committed batch with its number of events and, for a
   * model whose events carry many changes each (items), of those changes
   * (rebuild progress and rate).
   */
  readonly onApplied?: (events: number, changes?: number) => void;
}

export interface RebuildableReadModel {
  /** The name given to `npm run rebuild -- <name>`. */
  readonly name: string;
  /** The projection's checkpoint name. */
  readonly projection: string;
  /** The server-side filter of its projection: which events of the log it reads (how far behind it is). */
  readonly filter: Filter;
  /**
   * Prefixes of every key the projection writes under `keys` (each starts
   * with `keys.base`), and of nothing else: a rebuild replaces all of them.
   */
  keyPrefixes(keys: RedisKeys): string[];
  /**
   * Keys outside `keyPrefixes` that describe the same history and go with
   * the read model when the event log was replaced (not on a rebuild).
   */
  alsoReset?(keys: RedisKeys): string[];
  start(opts: StartReadModelOptions): RunningSubscription;
}

export const globEscape = (s: string): string => s.replace(/[*?[\]\\]/g, (c) => `\\${c}`);

/** SCAN patterns of every key `model` writes under `keys`. */
export const keyPatterns = (model: RebuildableReadModel, keys: RedisKeys): string[] => model.keyPrefixes(keys).map((p) => `${globEscape(p)}*`);
