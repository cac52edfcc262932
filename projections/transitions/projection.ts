// Projects the threshold transitions the engine writes into its ItemsChanged
// events (ENGINE_STREAM, `transitions`) into the transitions read model
// (src/items/transition-keys.ts). One MULTI per batch with the checkpoint, so each event is
// applied once; a replayed transition is the same member (its id comes from
// the transition), so replays change nothing. Transitions of jobs with
// reportToDatabaseEnabled false are not kept.
import type { EventStoreDBClient } from '@eventstore/db-client';
import type { RedisClient } from '../../src/core/redis/connect';
import type { RedisKeys } from '../../src/core/redis/keys';
import type { Logger } from '../../src/core/logger';
import type { RunningSubscription } from '../../src/core/subscriptions';
import { startProjection } from '../projection';
import { isEngineStream, itemEvents } from '../../src/engine';
import { ENGINE_FILTER } from '../engine-filter';
import type { RebuildableReadModel } from '../read-model';
import { MAX_ITERATIONS, TRANSITIONS_PROJECTION, TRANSITIONS_READ_MODEL, transitionKeys, transitionRecordId, iterationRecordOf, transitionRecordOf } from '../../src/items';

export function startTransitionsProjection(opts: {
  client: EventStoreDBClient;
  redis: RedisClient;
  keys: RedisKeys;
  logger: Logger;
  onApplied?: (events: number) => void;
}): RunningSubscription {
  const k = transitionKeys(opts.keys);
  return startProjection({
    ...opts,
    name: TRANSITIONS_PROJECTION,
    codecs: itemEvents,
    // The engine's stream, as the items projection reads it.
    filter: ENGINE_FILTER,
    apply: (events, tx) => {
      for (const e of events) {
        if (!isEngineStream(e.streamId)) continue;
        for (const t of e.data.transitions ?? []) {
          if (!t.reportToDatabaseEnabled) continue;
          const id = transitionRecordId(t.observationTime, t.transitionId);
          tx.zAdd(k.ids, { score: 0, value: id });
          tx.hSet(k.record, id, JSON.stringify(transitionRecordOf(t)));
        }
        for (const it of e.data.iterations ?? []) tx.zAdd(k.iterations, { score: it.time, value: JSON.stringify(iterationRecordOf(it)) });
      }
      tx.zRemRangeByRank(k.iterations, 0, -MAX_ITERATIONS - 1);
    },
    committed: (events) => opts.onApplied?.(events.length),
  });
}

/** `npm run rebuild -- transitions`, and how the service starts it (projections role). */
export const transitionsReadModel: RebuildableReadModel = {
  name: TRANSITIONS_READ_MODEL,
  projection: TRANSITIONS_PROJECTION,
  filter: ENGINE_FILTER,
  keyPrefixes: (keys) => [transitionKeys(keys).base],
  start: (opts) => startTransitionsProjection(opts),
};
