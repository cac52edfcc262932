// The items projection's MULTIs in flight (docs/item-processing.md, "Write
// cost"). While Redis executes one batch's MULTI, the next batches are read
// and folded: the projection is the only writer of these keys, so what a read
// cannot see yet is what the queued MULTIs write, kept here until Redis holds
// it. A MULTI is sent only once the one before it committed, so a batch never
// commits (with its checkpoint) after an earlier one failed: exactly once
// holds as without pipelining.
import type { RedisClient } from '../../src/core/redis/connect';
import { type ItemKeys, decodeStoredItem, type StoredItem } from '../../src/items';

type Multi = ReturnType<RedisClient['multi']>;

export class ItemsWritePipeline {
  /** The item each EPC has once the MULTIs queued so far commit, with the MULTI (its number) that writes it. */
  private readonly pending = new Map<string, { stored: StoredItem; seq: number }>();
  private readonly writtenBy = new Map<number, string[]>();
  private queued = 0;
  /** MULTIs handed to the client so far (by number): a read sent after them sees their writes. */
  private sent = 0;
  private last: Promise<void> = Promise.resolve();
  private unsettled = 0;
  private failed = false;

  constructor(
    private readonly redis: RedisClient,
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
    this.writtenBy.clear();
    this.sent = this.queued;
    this.last = Promise.resolve();
  }

  /** The stored items of `epcs` (those that exist) as they are once every queued MULTI committed. */
  async read(epcs: readonly string[]): Promise<Map<string, StoredItem>> {
    const found = new Map<string, StoredItem>();
    if (epcs.length === 0) return found;
    const sentBefore = this.sent;
    const raws = await this.redis.hmGet(this.k.item, [...epcs]);
    epcs.forEach((epc, i) => {
      const queued = this.pending.get(epc);
      if (queued !== undefined && queued.seq > sentBefore) found.set(epc, queued.stored);
      else {
        const raw = raws[i];
        if (raw != null) found.set(epc, decodeStoredItem(epc, raw));
      }
    });
    this.forgetUpTo(sentBefore);
    return found;
  }

  /**
   * Queues `tx`, which writes `items`, behind every MULTI queued before it;
   * resolves once it committed. Never sent after a failed one (it rejects
   * with that failure instead).
   */
  queue(tx: Multi, items: ReadonlyMap<string, StoredItem>): Promise<void> {
    const seq = ++this.queued;
    for (const [epc, stored] of items) this.pending.set(epc, { stored, seq });
    this.writtenBy.set(seq, [...items.keys()]);
    this.unsettled += 1;
    const committed = this.last.then(async () => {
      this.sent = seq;
      await tx.exec();
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
    for (const [n, epcs] of this.writtenBy) {
      if (n > seq) continue;
      for (const epc of epcs) if (this.pending.get(epc)?.seq === n) this.pending.delete(epc);
      this.writtenBy.delete(n);
    }
  }
}
