// The items projection's MULTIs in flight (docs/item-processing.md, "Write
// cost"). While Redis executes one batch's MULTI, the next batches are read
// and folded: the projection is the only writer of these keys, so what a read
// cannot see yet is what the queued MULTIs write, kept here until Redis holds
// it. A MULTI is sent only once the one before it committed, so a batch never
// commits (with its checkpoint) after an earlier one failed: exactly once
// holds as without pipelining. Reads and MULTIs go over the projection's own
// connection (../fenced-writer.ts), so a read sent after a MULTI sees it.
import type { Position } from '@eventstore/db-client';
import type { RedisClient } from '../../src/core/redis/connect';
import { type ItemKeys, decodeStoredItem, type StoredItem } from '../../src/items';
import type { Multi } from '../fenced-writer';

/** Where the MULTIs go: the connection they and the reads share, and the fenced commit (../fenced-writer.ts). */
export interface ItemsWriter {
  readonly redis: RedisClient;
  /** `sending`: called right before the MULTI goes to the connection (after the fence's own round trip). */
  commit(tx: Multi, position?: Position, sending?: () => void): Promise<void>;
}

export class ItemsWritePipeline {
  /**
   * The items each MULTI not yet known to be in Redis for reads writes, by
   * its number, oldest first (at most the pending batches: a few maps, kept
   * by reference, no work per item).
   */
  private readonly pending = new Map<number, ReadonlyMap<string, StoredItem>>();
  private queued = 0;
  /** MULTIs handed to the client so far (by number): a read sent after them sees their writes. */
  private sent = 0;
  private last: Promise<void> = Promise.resolve();
  private unsettled = 0;
  private failed = false;

  constructor(
    private readonly writer: ItemsWriter,
    private readonly k: ItemKeys,
  ) {}

  /**
   * Called before each batch. After a failed MULTI the subscription resumes
   * from its last committed batch once every write settled: start afresh.
   */
  begin(): void {
    if (!this.failed) return;
    if (this.unsettled > 0) throw new Error('an earlier items write failed; waiting for the rest to settle');
    this.failed = false;
    this.pending.clear();
    this.sent = this.queued;
    this.last = Promise.resolve();
  }

  /** The stored items of `epcs` (those that exist) as they are once every queued MULTI committed. */
  async read(epcs: readonly string[]): Promise<Map<string, StoredItem>> {
    const found = new Map<string, StoredItem>();
    if (epcs.length === 0) return found;
    const sentBefore = this.sent;
    const raws = await this.writer.redis.hmGet(this.k.item, [...epcs]);
    this.forgetUpTo(sentBefore);
    // Newest first: the last MULTI that writes an item has its latest state.
    const unseen = [...this.pending.values()].reverse();
    epcs.forEach((epc, i) => {
      const queued = this.queuedItem(unseen, epc);
      if (queued !== undefined) found.set(epc, queued);
      else {
        const raw = raws[i];
        if (raw != null) found.set(epc, decodeStoredItem(epc, raw));
      }
    });
    return found;
  }

  private queuedItem(newestFirst: ReadonlyArray<ReadonlyMap<string, StoredItem>>, epc: string): StoredItem | undefined {
    for (const items of newestFirst) {
      const stored = items.get(epc);
      if (stored !== undefined) return stored;
    }
    return undefined;
  }

  /**
   * Queues `tx`, which writes `items` (and `position` as the checkpoint, if
   * given), behind every MULTI queued before it; resolves once it committed.
   * Never sent after a failed one (it rejects with that failure instead).
   */
  queue(tx: Multi, items: ReadonlyMap<string, StoredItem>, position?: Position): Promise<void> {
    const seq = ++this.queued;
    this.pending.set(seq, items);
    this.unsettled += 1;
    const committed = this.last.then(async () => {
      // Sent on the next turn of the event loop: when the next batch's events
      // are at hand, its handler runs in this turn and its read goes to Redis
      // first, so the next fold runs while Redis executes this MULTI, instead
      // of the read waiting behind it (its items are in `pending` meanwhile).
      await new Promise<void>((resolve) => setImmediate(resolve));
      // Counted as sent only once the MULTI itself goes out: a read sent during the fence's
      // compare goes before it and must still take its items from `pending`.
      await this.writer.commit(tx, position, () => (this.sent = seq));
    });
    this.last = committed;
    committed.then(
      () => undefined,
      () => (this.failed = true),
    ).finally(() => (this.unsettled -= 1));
    return committed;
  }

  /** Resolves once every queued MULTI committed; rejects if one failed. */
  drained(): Promise<void> {
    return this.last;
  }

  /** Every read from now on is sent after MULTI `seq` and earlier: Redis shows what they wrote. */
  private forgetUpTo(seq: number): void {
    for (const n of this.pending.keys()) if (n <= seq) this.pending.delete(n);
  }
}
