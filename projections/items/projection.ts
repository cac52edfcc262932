// Projects the engine's ItemsChanged events (ENGINE_STREAM) into the items
// and history read models (layout in src/items/keys.ts). The handler reads the
// touched items, folds the batch and writes items, their index sets, history
// records and the checkpoint in one MULTI, so every event is applied exactly
// once. It is the only writer (projections role), so nothing but its own
// queued MULTIs changes the items between the read and the MULTI; those are
// pipelined (./write-pipeline.ts): the next batch is folded while Redis
// executes the previous one.
//
// Replaying events already applied changes nothing: an item keeps the log
// position of the change it shows and ignores older or equal ones, and a
// history record's id is derived from its event id and index (a re-added
// member is the same member).
import type { EventStoreDBClient } from '@eventstore/db-client';
import { ENGINE_FILTER } from '../engine-filter';
import type { RedisClient } from '../../src/core/redis/connect';
import type { RedisKeys } from '../../src/core/redis/keys';
import type { RecordedDomainEvent } from '../../src/core/events';
import type { Logger } from '../../src/core/logger';
import type { RunningSubscription, SubscriptionHandler } from '../../src/core/subscriptions';
import { startProjection } from '../projection';
import type { FencedWriter, Multi } from '../fenced-writer';
import { isEngineStream, itemEvents, type ItemsEvent } from '../../src/engine';
import { ITEMS_PROJECTION, itemKeys, type ItemKeys, type StoredItem } from '../../src/items';
import { foldItems, latestChanges } from './fold';
import { queueItemsReset } from './reset';
import { ItemsWritePipeline } from './write-pipeline';

/** The events the items projection reads (the item engine's stream). */

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
  return startProjection({
    client: opts.client,
    redis: opts.redis,
    keys: opts.keys,
    logger: opts.logger,
    name,
    codecs: itemEvents,
    filter: ENGINE_FILTER,
    maxBatchSize: BATCH_EVENTS,
    maxPendingWrites: PENDING_BATCHES,
    handler: (writer) => itemsHandler(writer, k, opts.logger, opts.onApplied),
  });
}

/**
 * A batch: its reset segments (each reset after what came before it), each
 * folded and queued as one MULTI on the pipeline; the checkpoint with the last.
 */
function itemsHandler(writer: FencedWriter, k: ItemKeys, logger: Logger, onApplied?: (events: number, changes: number) => void): SubscriptionHandler<ItemsEvent> {
  const writes = new ItemsWritePipeline(writer, k);
  return async (events, position) => {
    writes.begin();
    const relevant = events.filter((e) => isEngineStream(e.streamId));
    let committed: Promise<void> = Promise.resolve();
    const segments = resetSegments(relevant);
    for (const [i, segment] of segments.entries()) {
      const tx = writer.multi();
      const reset = segment[0]?.data.reset;
      if (reset !== undefined) {
        // The reset reads the facility's items: everything queued before it must be in Redis.
        await writes.drained();
        const dropped = await queueItemsReset(writer.redis, k, reset, tx);
        logger.info('items read model: items of a facility reset', { facility: reset.facility, clearHistory: reset.clearHistory, ...dropped });
      }
      const written = await queueChanges(writes, k, segment, tx);
      // The checkpoint goes with the batch's last MULTI.
      committed = writes.queue(tx, written, i === segments.length - 1 ? position : undefined);
      // What the reset deletes is not among the queued items: later reads must find it gone in Redis.
      if (reset !== undefined) await committed;
    }
    const changes = relevant.reduce((n, e) => n + e.data.changes.length, 0);
    return { committed: committed.then(() => onApplied?.(events.length, changes)) };
  };
}

/**
 * Events a batch hands the projection at most: one MULTI each. Large enough
 * that a MULTI carries thousands of changes (few commands per key), small
 * enough that the next batches are read and folded while Redis executes it.
 */
const BATCH_EVENTS = 20;
/** MULTIs that may wait for Redis while the next batch is folded. */
const PENDING_BATCHES = 3;

/**
 * An item reset splits the batch: what comes before it is committed first,
 * so the reset sees it; the checkpoint goes with the last MULTI (a crash in
 * between replays the batch, and the reset drops again what the first part
 * re-adds). Always at least one segment (the checkpoint's).
 */
function resetSegments(events: ReadonlyArray<RecordedDomainEvent<ItemsEvent>>): Array<ReadonlyArray<RecordedDomainEvent<ItemsEvent>>> {
  const segments: Array<Array<RecordedDomainEvent<ItemsEvent>>> = [[]];
  for (const e of events) {
    if (e.data.reset !== undefined) segments.push([e], []);
    else segments[segments.length - 1]!.push(e);
  }
  return segments.filter((seg, i) => seg.length > 0 || i === segments.length - 1);
}

/**
 * Reads the items `events` touch (as the queued writes leave them), folds
 * their changes (./fold.ts) and queues the writes of items, index sets and
 * history records on `tx`. Returns the items it writes.
 */
async function queueChanges(
  writes: ItemsWritePipeline,
  k: ItemKeys,
  events: ReadonlyArray<RecordedDomainEvent<ItemsEvent>>,
  tx: Multi,
): Promise<ReadonlyMap<string, StoredItem>> {
  const { latest, history } = latestChanges(events, k);
  const before = await writes.read([...latest.keys()]);
  const { written, commands } = foldItems(latest, before, k);
  for (const command of [...commands, ...history]) tx.addCommand(command);
  return written;
}
