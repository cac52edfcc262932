// Projects configuration events into the config read model. Each part knows
// one stream category; the checkpoint is written in the same MULTI as the
// change, so every event is applied exactly once. Every part writes whole
// values (HSET/HDEL of what the event carries, last writer wins), so replaying
// events changes nothing once the replay has passed them.
import { streamNameFilter, type EventStoreDBClient, type Filter } from '@eventstore/db-client';
import type { RedisClient } from '../../src/core/redis/connect';
import type { EventCodecs, RecordedDomainEvent } from '../../src/core/events';
import type { Logger } from '../../src/core/logger';
import type { RunningSubscription } from '../../src/core/subscriptions';
import { startProjection } from '../projection';
import type { RedisKeys } from '../../src/core/redis/keys';
import type { RebuildableReadModel } from '../read-model';
import type { ConfigProjectionPart } from './part';
import { tokensKey } from '../../src/auth';
import { CONFIG_READ_MODEL } from '../../src/core/resource/readmodel';
import { agentKeys } from '../../src/agents';

export const CONFIG_PROJECTION = 'config-v1';

const configFilter = (parts: readonly ConfigProjectionPart[]): Filter => streamNameFilter({ prefixes: parts.map((p) => p.streamPrefix) });

export function startConfigProjection(opts: {
  client: EventStoreDBClient;
  redis: RedisClient;
  keys: RedisKeys;
  parts: readonly ConfigProjectionPart[];
  logger: Logger;
  onApplied?: (events: number) => void;
}): RunningSubscription {
  const byType = new Map<string, ConfigProjectionPart>();
  const codecs: Record<string, EventCodecs[string]> = {};
  for (const part of opts.parts) {
    for (const [type, codec] of Object.entries(part.codecs)) {
      if (byType.has(type)) throw new Error(`event type ${type} projected twice`);
      byType.set(type, part);
      codecs[type] = codec;
    }
  }
  // Every configuration change is one info line (stream, event, who), written
  // once it is applied: the operator's record of what changed. The replay
  // before catching up (a start, a rebuild) only repeats old changes: debug.
  let live = false;
  return startProjection({
    client: opts.client,
    redis: opts.redis,
    keys: opts.keys,
    logger: opts.logger,
    name: CONFIG_PROJECTION,
    codecs,
    filter: configFilter(opts.parts),
    apply: (events, tx) => {
      for (const e of events) byType.get(e.type)?.apply(tx, e as RecordedDomainEvent<{ type: string; data: unknown }>, opts.keys);
    },
    committed: (events) => {
      const log = live ? opts.logger.info : opts.logger.debug;
      for (const e of events) {
        log('configuration changed', { stream: e.streamId, event: e.type, ...(e.metadata.user ? { user: e.metadata.user } : {}) });
      }
      opts.onApplied?.(events.length);
    },
    onCaughtUp: () => {
      live = true;
    },
  });
}

/**
 * The config read model with its parts (./parts.ts): configuration hashes,
 * users and tokens, agent secrets and pending agent commands. Not the token
 * last-used times: the auth guard writes those, they are not in the log.
 */
export const configReadModel = (parts: readonly ConfigProjectionPart[]): RebuildableReadModel => ({
  name: CONFIG_READ_MODEL,
  projection: CONFIG_PROJECTION,
  filter: configFilter(parts),
  // tokensKey is also the prefix of `:revoked` and `-revoked`.
  keyPrefixes: (keys) => [keys.config(''), tokensKey(keys.base), agentKeys(keys).secrets, agentKeys(keys).commandsBase],
  // Token last-used times of the tokens of a replaced log.
  alsoReset: (keys) => [keys.tokenLastUsed],
  start: (opts) => startConfigProjection({ ...opts, parts }),
});
