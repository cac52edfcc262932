// Expiry index: tick must not look at every item (1,000,000 items at a tick
// every 500 ms would be a full scan twice a second). Every view keeps its
// present items grouped by (job that last saw them, time bucket of lastSeen),
// maintained on every write of an item, so tick reads only the buckets whose
// items may be due: O(items due) instead of O(items) (docs/item-processing.md,
// "Expiry index").
import { ABSENT } from './zones';

/** What the index reads of an item (the engine's ItemState). */
export interface IndexedItem {
  readonly epc: string;
  readonly zone: string;
  readonly jobId: string;
  readonly lastSeen: number;
}

/** Width of a lastSeen bucket. Items of the newest due bucket that are not due yet are looked at again next tick. */
export const BUCKET_MS = 1000;

const bucketOf = (time: number): number => Math.floor(time / BUCKET_MS);

/** A min-heap of bucket numbers; a number may be in it twice (a bucket emptied and refilled), callers skip repeats. */
class MinHeap {
  private readonly a: number[] = [];

  get size(): number {
    return this.a.length;
  }

  peek(): number | undefined {
    return this.a[0];
  }

  push(v: number): void {
    const a = this.a;
    a.push(v);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pv = a[p] as number;
      if (pv <= v) break;
      a[i] = pv;
      i = p;
    }
    a[i] = v;
  }

  pop(): number | undefined {
    const a = this.a;
    const top = a[0];
    const last = a.pop();
    if (top === undefined || last === undefined || a.length === 0) return top;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= a.length) break;
      const r = l + 1;
      const c = r < a.length && (a[r] as number) < (a[l] as number) ? r : l;
      if ((a[c] as number) >= last) break;
      a[i] = a[c] as number;
      i = c;
    }
    a[i] = last;
    return top;
  }
}

/** The present items of one job in one view, by lastSeen bucket. */
class JobBuckets {
  readonly buckets = new Map<number, Set<string>>();
  readonly heap = new MinHeap();

  add(epc: string, bucket: number): void {
    let set = this.buckets.get(bucket);
    if (set === undefined) {
      set = new Set();
      this.buckets.set(bucket, set);
      this.heap.push(bucket);
    }
    set.add(epc);
  }

  remove(epc: string, bucket: number): void {
    const set = this.buckets.get(bucket);
    if (set === undefined) return;
    set.delete(epc);
    if (set.size === 0) this.buckets.delete(bucket); // its heap entry is skipped when reached
  }

  /** EPCs in buckets that may hold an item with lastSeen <= threshold, oldest bucket first. */
  candidates(threshold: number): string[] {
    const out: string[] = [];
    const visited: number[] = [];
    const last = bucketOf(threshold);
    for (let b = this.heap.peek(); b !== undefined && b <= last; b = this.heap.peek()) {
      this.heap.pop();
      const set = this.buckets.get(b);
      if (set === undefined || visited[visited.length - 1] === b) continue;
      visited.push(b);
      for (const epc of set) out.push(epc);
    }
    // The buckets stay indexed: an item leaves its bucket only when it is written (expired, re-read).
    for (const b of visited) if (this.buckets.has(b)) this.heap.push(b);
    return out;
  }
}

/**
 * An item view (EPC -> state) that indexes its present items for expiry.
 * Every write goes through set/delete, so the index never disagrees with the
 * map. Only construct it empty (Map's constructor would call set before the
 * index exists).
 */
export class IndexedView<T extends IndexedItem> extends Map<string, T> {
  private readonly byJob = new Map<string, JobBuckets>();

  override set(epc: string, item: T): this {
    const prev = super.get(epc);
    if (prev !== undefined) this.unindex(prev);
    super.set(epc, item);
    this.index(epc, item);
    return this;
  }

  /**
   * set(item.epc, item) when the caller already holds the current state
   * `prev` of that EPC (the engine's per-read path): no lookup, and the index
   * is left alone when the item stays in the same job's bucket.
   */
  replace(prev: T, item: T): void {
    super.set(item.epc, item);
    if (prev.zone !== ABSENT && item.zone !== ABSENT && prev.jobId === item.jobId && bucketOf(prev.lastSeen) === bucketOf(item.lastSeen)) return;
    this.unindex(prev);
    this.index(item.epc, item);
  }

  override delete(epc: string): boolean {
    const prev = super.get(epc);
    if (prev !== undefined) this.unindex(prev);
    return super.delete(epc);
  }

  override clear(): void {
    this.byJob.clear();
    super.clear();
  }

  /**
   * Present items last seen by `jobId` with lastSeen <= threshold (a superset
   * is never returned: each candidate is checked). Cost: the items of the
   * buckets up to the threshold's, which are all due but for the newest bucket.
   */
  dueBy(jobId: string, threshold: number): T[] {
    const job = this.byJob.get(jobId);
    if (job === undefined) return [];
    const due: T[] = [];
    for (const epc of job.candidates(threshold)) {
      const item = super.get(epc);
      if (item !== undefined && item.lastSeen <= threshold) due.push(item);
    }
    return due;
  }

  /** Jobs with present items in this view. */
  indexedJobs(): IterableIterator<string> {
    return this.byJob.keys();
  }

  private index(epc: string, item: T): void {
    if (item.zone === ABSENT) return;
    let job = this.byJob.get(item.jobId);
    if (job === undefined) {
      job = new JobBuckets();
      this.byJob.set(item.jobId, job);
    }
    job.add(epc, bucketOf(item.lastSeen));
  }

  private unindex(prev: T): void {
    if (prev.zone === ABSENT) return;
    const job = this.byJob.get(prev.jobId);
    if (job === undefined) return;
    job.remove(prev.epc, bucketOf(prev.lastSeen));
    if (job.buckets.size === 0) this.byJob.delete(prev.jobId);
  }
}
