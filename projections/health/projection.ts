// Projects `readerHealth-*` and `readerAgent-*` streams into the health read
// model (layout in src/health/keys.ts). The handler reads the touched readers' states,
// folds the batch and writes states, searchable events and the checkpoint in
// one MULTI, so every event is applied exactly once. It runs as a single
// active consumer (projections role), so nothing else writes these states
// between the read and the MULTI. The fold is not idempotent, so each
// reader's last applied log position is kept (projections/applied.ts) and
// replayed events change nothing.
import { streamNameFilter, type EventStoreDBClient } from '@eventstore/db-client';
import type { RedisClient } from '../../src/core/redis/connect';
import type { RedisKeys } from '../../src/core/redis/keys';
import type { Logger } from '../../src/core/logger';
import type { RunningSubscription } from '../../src/core/subscriptions';
import { startProjection } from '../projection';
import type { RebuildableReadModel } from '../read-model';
import { AppliedPositions } from '../applied';
import { AGENT_STREAM_PREFIX, HEALTH_STREAM_PREFIX, healthEvents, readerOfStream, type HealthStreamEvent, evolveHealth, initialHealthState, type ReaderHealthState, decodeReaderState, HEALTH_PROJECTION, HEALTH_READ_MODEL, healthKeys, encodeMember, searchableView } from '../../src/health';

export function startHealthProjection(opts: {
  client: EventStoreDBClient;
  redis: RedisClient;
  keys: RedisKeys;
  logger: Logger;
  onApplied?: (events: number) => void;
}): RunningSubscription {
  const k = healthKeys(opts.keys);
  return startProjection({
    ...opts,
    name: HEALTH_PROJECTION,
    codecs: healthEvents,
    filter: healthReadModel.filter,
    apply: async (events, tx) => {
      const readers = [...new Set(events.flatMap((e) => readerOfStream(e.streamId) ?? []))];
      const stored = readers.length ? await opts.redis.hmGet(k.readers, readers) : [];
      const applied = await AppliedPositions.load(opts.redis, k.applied, readers);
      const states = new Map<string, ReaderHealthState>();
      readers.forEach((r, i) => {
        const json = stored[i];
        states.set(r, json == null ? initialHealthState(r) : decodeReaderState(r, json));
      });
      for (const e of events) {
        const reader = readerOfStream(e.streamId);
        if (reader === undefined || !applied.apply(reader, e.position)) continue;
        const event = e as HealthStreamEvent;
        states.set(reader, evolveHealth(states.get(reader) ?? initialHealthState(reader), event));
        const view = searchableView(event, reader);
        if (view) {
          const member = { score: Date.parse(view.eventTime), value: encodeMember(e.id, view) };
          tx.zAdd(k.events, member);
          tx.zAdd(k.readerEvents(reader), member);
        }
      }
      const changed = [...states].filter(([r]) => applied.changed(r));
      if (changed.length) tx.hSet(k.readers, Object.fromEntries(changed.map(([r, s]) => [r, JSON.stringify(s)])));
      applied.saveInTransaction(tx, k.applied);
    },
    committed: (events) => opts.onApplied?.(events.length),
  });
}

export const healthReadModel: RebuildableReadModel = {
  name: HEALTH_READ_MODEL,
  projection: HEALTH_PROJECTION,
  filter: streamNameFilter({ prefixes: [HEALTH_STREAM_PREFIX, AGENT_STREAM_PREFIX] }),
  keyPrefixes: (keys) => [healthKeys(keys).base],
  start: (opts) => startHealthProjection(opts),
};
