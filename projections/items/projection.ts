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
import type { RecordedDomainEvent } from '../../src/core/events';
import type { Logger } from '../../src/core/logger';
import { RedisCheckpointStore, runSubscription, type RunningSubscription } from '../../src/core/subscriptions';
import { ENGINE_STREAM, itemEvents, type ItemsEvent } from '../../src/engine';
import { historyId, ITEMS_PROJECTION, itemKeys, type ItemKeys } from './keys';
import { changeOrder, historyRecordOf, indexKeysOf, itemAfter, keptInHistory, type StoredItem } from './model';
import { queueItemsReset } from './reset';

/** The events the items projection reads (the item engine's stream). */
export const ITEMS_FILTER = streamNameFilter({ prefixes: [ENGINE_STREAM] });

export function startItemsProjection(opts: {
  client: EventStoreDBClient;
  redis: RedisClient;
  keys: RedisKeys;
  logger: Logger;
  /** Defaults to `items-v1`; a rebuild beside the live model uses another name and other keys. */
  name?: string;
  /** Called after each batch is committed with the number of events and of item changes in it (rebuild progress). */
  onApplied?: (events: number, changes: number) => void;
}): RunningSubscription {
  const k = itemKeys(opts.keys);
  const name = opts.name ?? ITEMS_PROJECTION;
  const checkpoints = new RedisCheckpointStore(opts.redis, opts.keys.checkpointPrefix);
  return runSubscription({
    client: opts.client,
    name,
    codecs: itemEvents,
    filter: ITEMS_FILTER,
    checkpointStore: checkpoints,
    checkpointMode: 'handler',
    logger: opts.logger,
    handler: async (events, position) => {
      const relevant = events.filter((e) => e.streamId === ENGINE_STREAM);
      // An item reset splits the batch: what comes before it is committed
      // first, so the reset sees it; the checkpoint goes with the last MULTI
      // (a crash in between replays the batch, and the reset drops again what
      // the first part re-adds).
      const segments: Array<typeof relevant> = [[]];
      for (const e of relevant) {
        if (e.data.reset !== undefined) segments.push([e], []);
        else segments[segments.length - 1]!.push(e);
      }
      const nonEmpty = segments.filter((seg, i) => seg.length > 0 || i === segments.length - 1);
      for (const [i, segment] of nonEmpty.entries()) {
        const tx = opts.redis.multi();
        const reset = segment[0]?.data.reset;
        if (reset !== undefined) {
          const dropped = await queueItemsReset(opts.redis, k, reset, tx);
          opts.logger.info('items read model: items of a facility reset', { facility: reset.facility, clearHistory: reset.clearHistory, ...dropped });
        }
        await queueChanges(opts.redis, k, segment, tx);
        if (i === nonEmpty.length - 1) checkpoints.saveInTransaction(tx, name, position);
        await tx.exec();
      }
      opts.onApplied?.(events.length, relevant.reduce((n, e) => n + e.data.changes.length, 0));
    },
  });
}

/**
 * Reads the items `events` touch, folds their changes and queues the writes
 * of items, index sets and history records on `tx`.
 */
async function queueChanges(redis: RedisClient, k: ItemKeys, events: ReadonlyArray<RecordedDomainEvent<ItemsEvent>>, tx: ReturnType<RedisClient['multi']>): Promise<void> {
  const epcs = [...new Set(events.flatMap((e) => e.data.changes.filter((c) => c.reportToDatabaseEnabled).map((c) => c.epc.toUpperCase())))];
  const before = new Map<string, StoredItem>();
  if (epcs.length > 0) {
    const raws = await redis.hmGet(k.item, epcs);
    epcs.forEach((epc, i) => {
      const raw = raws[i];
      if (raw != null) before.set(epc, JSON.parse(raw) as StoredItem);
    });
  }
  const after = new Map(before);
  const writes = new SetWrites();
  const historyRecords: string[] = [];
  for (const e of events) {
    const commit = e.position?.commit;
    if (commit === undefined) throw new Error(`ItemsChanged ${e.id} has no $all position`);
    e.data.changes.forEach((change, i) => {
      if (change.reportToDatabaseEnabled) {
        const epc = change.epc.toUpperCase();
        const at = changeOrder(commit, i);
        const current = after.get(epc);
        if (current === undefined || current.at < at) after.set(epc, { item: itemAfter(change), ms: change.observationTime, at });
      }
      if (change.reportToHistoryEnabled && keptInHistory(change.kind)) {
        const id = historyId(change.observationTime, e.id, i);
        writes.add(k.history, id);
        historyRecords.push(id, JSON.stringify(historyRecordOf(change)));
      }
    });
  }
  const items: string[] = [];
  for (const [epc, stored] of after) {
    const old = before.get(epc);
    if (old === stored) continue;
    const newIndices = indexKeysOf(stored.item, k);
    // An EPC leaves an index set or joins it, never both, so removals and
    // additions of one set do not depend on their order.
    for (const key of old ? indexKeysOf(old.item, k) : []) if (!newIndices.includes(key)) writes.remove(key, epc);
    for (const key of newIndices) writes.add(key, epc);
    writes.add(k.all, epc);
    writes.add(k.time, epc, stored.ms);
    items.push(epc, JSON.stringify(stored));
  }
  writes.queue(tx);
  if (items.length > 0) tx.hSet(k.item, items);
  if (historyRecords.length > 0) tx.hSet(k.historyRecord, historyRecords);
}

/**
 * The sorted-set writes of a batch, one variadic ZADD / ZREM per key: a batch
 * of thousands of changes touches a few dozen keys, and one command per
 * member would cost Redis and the client far more than the members do.
 */
class SetWrites {
  private readonly adds = new Map<string, Array<{ score: number; value: string }>>();
  private readonly removes = new Map<string, string[]>();

  add(key: string, value: string, score = 0): void {
    const members = this.adds.get(key);
    if (members) members.push({ score, value });
    else this.adds.set(key, [{ score, value }]);
  }

  remove(key: string, value: string): void {
    const members = this.removes.get(key);
    if (members) members.push(value);
    else this.removes.set(key, [value]);
  }

  queue(tx: ReturnType<RedisClient['multi']>): void {
    for (const [key, members] of this.removes) tx.zRem(key, members);
    for (const [key, members] of this.adds) tx.zAdd(key, members);
  }
}
