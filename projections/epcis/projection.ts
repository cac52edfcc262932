// Projects the facts of the engine's output that become EPCIS events
// (src/epcis/source.ts) into the EPCIS read model (src/epcis/keys.ts), behind
// GET /epcis/v2/events. One MULTI per batch with the checkpoint; a replayed
// fact is the same member. An item reset does not remove them: EPCIS events
// are a record of what was observed.
import type { EventStoreDBClient } from '@eventstore/db-client';
import { ENGINE_FILTER } from '../engine-filter';
import type { RedisClient } from '../../src/core/redis/connect';
import type { RedisKeys } from '../../src/core/redis/keys';
import type { Logger } from '../../src/core/logger';
import type { RunningSubscription } from '../../src/core/subscriptions';
import { startProjection } from '../projection';
import { isEngineStream, itemEvents } from '../../src/engine';
import { sourcesOf, EPCIS_PROJECTION, EPCIS_READ_MODEL, epcisKeys, epcisSourceId } from '../../src/epcis';
import type { RebuildableReadModel } from '../read-model';

export function startEpcisProjection(opts: { client: EventStoreDBClient; redis: RedisClient; keys: RedisKeys; logger: Logger; onApplied?: (events: number) => void }): RunningSubscription {
  const k = epcisKeys(opts.keys);
  return startProjection({
    ...opts,
    name: EPCIS_PROJECTION,
    codecs: itemEvents,
    filter: ENGINE_FILTER,
    apply: (events, tx) => {
      const ids: string[] = [];
      const records: Record<string, string> = {};
      for (const e of events) {
        if (!isEngineStream(e.streamId)) continue;
        for (const s of sourcesOf({ id: e.id, created: e.created.getTime(), data: e.data })) {
          const id = epcisSourceId(s.time, s.eventId, s.ref);
          ids.push(id);
          records[id] = JSON.stringify(s);
        }
      }
      if (ids.length > 0) {
        tx.zAdd(k.ids, ids.map((value) => ({ score: 0, value })));
        tx.hSet(k.source, records);
      }
    },
    committed: (events) => opts.onApplied?.(events.length),
  });
}

/** `npm run rebuild -- epcis`, and how the service starts it (projections role). */
export const epcisReadModel: RebuildableReadModel = {
  name: EPCIS_READ_MODEL,
  projection: EPCIS_PROJECTION,
  filter: ENGINE_FILTER,
  keyPrefixes: (keys) => [epcisKeys(keys).base],
  start: (opts) => startEpcisProjection(opts),
};
