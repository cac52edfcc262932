// Projects the engine's ItemsChanged events (ENGINE_STREAM) into the items
// and history read models (layout in ./keys.ts). The handler reads the
// touched items, folds the batch and writes items, their index sets, history
// records and the checkpoint in one MULTI, so every event is applied exactly
// once. It is the only writer (projections role), so nothing changes the
// items between the read and the MULTI.
//
// Replaying events already applied changes nothing: an item keeps the log
// position of the change it shows and ignores older or equal ones, and a
// history record's id is derived from its event id and index (a re-added
// member is the same member).
import { streamNameFilter, type EventStoreDBClient } from '@eventstore/db-client';
import type { RedisClient } from '../../src/core/redis/connect';
import type { RedisKeys } from '../../src/core/redis/keys';
import type { Logger } from '../../src/core/logger';
import { RedisCheckpointStore, runSubscription, type RunningSubscription } from '../../src/core/subscriptions';
import { ENGINE_STREAM, itemEvents } from '../../src/engine/events';
import { writesHistory } from '../../src/engine/types';
import { historyId, ITEMS_PROJECTION, itemKeys } from './keys';
import { changeOrder, historyRecordOf, indexKeysOf, itemAfter, type StoredItem } from './model';

export function startItemsProjection(opts: {
  client: EventStoreDBClient;
  redis: RedisClient;
  keys: RedisKeys;
  logger: Logger;
  /** Defaults to `items-v1`; a rebuild beside the live model uses another name and other keys. */
  name?: string;
  /** Called after each batch is committed with the number of events in it (rebuild progress). */
  onApplied?: (events: number) => void;
}): RunningSubscription {
  const k = itemKeys(opts.keys);
  const name = opts.name ?? ITEMS_PROJECTION;
  const checkpoints = new RedisCheckpointStore(opts.redis, opts.keys.checkpointPrefix);
  return runSubscription({
    client: opts.client,
    name,
    codecs: itemEvents,
    filter: streamNameFilter({ prefixes: [ENGINE_STREAM] }),
    checkpointStore: checkpoints,
    checkpointMode: 'handler',
    logger: opts.logger,
    handler: async (events, position) => {
      const relevant = events.filter((e) => e.streamId === ENGINE_STREAM);
      const epcs = [
        ...new Set(relevant.flatMap((e) => e.data.changes.filter((c) => c.reportToDatabaseEnabled).map((c) => c.epc.toUpperCase()))),
      ];
      const before = new Map<string, StoredItem>();
      if (epcs.length > 0) {
        const raws = await opts.redis.hmGet(k.item, epcs);
        epcs.forEach((epc, i) => {
          const raw = raws[i];
          if (raw != null) before.set(epc, JSON.parse(raw) as StoredItem);
        });
      }
      const after = new Map(before);
      const tx = opts.redis.multi();
      for (const e of relevant) {
        const commit = e.position?.commit;
        if (commit === undefined) throw new Error(`ItemsChanged ${e.id} has no $all position`);
        e.data.changes.forEach((change, i) => {
          if (change.reportToDatabaseEnabled) {
            const epc = change.epc.toUpperCase();
            const at = changeOrder(commit, i);
            const current = after.get(epc);
            if (current === undefined || current.at < at) after.set(epc, { item: itemAfter(change), ms: change.observationTime, at });
          }
          if (change.reportToHistoryEnabled && writesHistory(change.kind)) {
            const id = historyId(change.observationTime, e.id, i);
            tx.zAdd(k.history, { score: 0, value: id });
            tx.hSet(k.historyRecord, id, JSON.stringify(historyRecordOf(change)));
          }
        });
      }
      for (const [epc, stored] of after) {
        const old = before.get(epc);
        if (old === stored) continue;
        const newIndices = indexKeysOf(stored.item, k);
        for (const key of old ? indexKeysOf(old.item, k) : []) if (!newIndices.includes(key)) tx.zRem(key, epc);
        for (const key of newIndices) tx.zAdd(key, { score: 0, value: epc });
        tx.zAdd(k.all, { score: 0, value: epc });
        tx.zAdd(k.time, { score: stored.ms, value: epc });
        tx.hSet(k.item, epc, JSON.stringify(stored));
      }
      checkpoints.saveInTransaction(tx, name, position);
      await tx.exec();
      opts.onApplied?.(events.length);
    },
  });
}
