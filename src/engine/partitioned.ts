// The engine role over several partitions (docs/scaling.md, "Engine
// partitions"): facilities are spread over ENGINE_PARTITIONS partitions by a
// stable hash (./partitions.ts); a process runs one worker (./worker.ts) per
// partition it owns. With one partition it simply runs that worker, as the
// engine always did. With more, a partition is owned only while its lease
// in Redis is held: every third of the lease the process tries to take the
// partitions it may own (ENGINE_PARTITION_IDS) that nobody holds, so it
// takes over a partition whose owner stopped (released at once) or died
// (expired). The lease only keeps the work apart; what keeps two writers
// apart is the fencing every worker already does: each append carries the
// revision it last wrote, so a stale owner that has not noticed its lost
// lease yet is refused (or, if it writes first, the new owner is refused and
// rebuilds from the output, which then includes that write).
// Processes balance the partitions among themselves (./balance.ts): each
// records itself in Redis (./membership.ts) at every claim round, takes free
// partitions only up to its fair share, and gives one up per round, the
// graceful way, while it holds more than its share and another live process
// that may own it holds less.
import type { RedisClient } from '../core/redis/connect';
import { RedisLease } from '../core/redis/lease';
import { addScrapeProbe, ageSeconds, metrics } from '../core/metrics';
import type { BackgroundWork } from '../slice';
import type { Logger } from '../core/logger';
import { shareOf, shouldTake, toRelease, type BalanceView } from './balance';
import { EngineMembership } from './membership';
import { startEngineWorker, type EngineWorker, type EngineWorkerOptions } from './worker';

export interface EnginePartitionsOptions {
  /** Partitions in all (ENGINE_PARTITIONS). */
  readonly count: number;
  /** Partitions this process may own (ENGINE_PARTITION_IDS). */
  readonly owned: readonly number[];
  /** The lease of each partition; needed with more than one partition. */
  readonly lease?: {
    readonly redis: RedisClient;
    readonly keyOf: (partition: number) => string;
    readonly ttlMs: number;
    /** The hash of live engine processes, for balancing (RedisKeys.engineMembers). */
    readonly membersKey: string;
  };
}

export interface PartitionedEngine extends BackgroundWork {
  /** Partitions whose worker runs in this process now, ascending. */
  readonly partitions: readonly number[];
  /** Runs started by all its workers (1 per partition plus resyncs). */
  readonly runs: number;
}

/** The partition's worker no longer runs in this process. */
const given = (index: number): void => {
  metrics.enginePartitionOwned.set({ partition: String(index) }, 0);
};

type PartitionWorkerOptions = Omit<EngineWorkerOptions, 'partition' | 'lagProbe'>;

/** The workers that run in this process, one per partition, and the runs of those that stopped. */
class PartitionWorkers {
  private readonly workers = new Map<number, EngineWorker>();
  private finishedRuns = 0;

  constructor(
    private readonly opts: PartitionWorkerOptions,
    private readonly count: number,
  ) {}

  has(index: number): boolean {
    return this.workers.has(index);
  }

  start(index: number): void {
    const { opts, count } = this;
    // Who runs which partition, seen from outside: a hand-over shows as the gauge moving between processes.
    metrics.enginePartitionOwned.set({ partition: String(index) }, 1);
    this.workers.set(index, startEngineWorker({ ...opts, logger: opts.logger.child('item-engine', { partition: index }), partition: { index, count }, lagProbe: false }));
  }

  /** Stops the partition's worker (if it runs here), keeping its runs in the count. */
  async release(index: number): Promise<void> {
    const worker = this.workers.get(index);
    this.workers.delete(index);
    if (worker !== undefined) {
      this.finishedRuns += worker.runs;
      await worker.stop();
      given(index);
    }
  }

  get partitions(): number[] {
    return [...this.workers.keys()].sort((a, b) => a - b);
  }

  get runs(): number {
    return this.finishedRuns + [...this.workers.values()].reduce((n, w) => n + w.runs, 0);
  }

  running(): [number, EngineWorker][] {
    return [...this.workers.entries()];
  }

  clear(): void {
    this.workers.clear();
  }
}

/**
 * With more than one partition: every third of the lease, records this
 * process among the live ones, gives up one partition when it holds more
 * than its share and another process would take it, or else takes the
 * partitions this process may own that nobody holds, up to its share; and
 * stops the worker of one whose lease another process took.
 */
class PartitionClaims {
  private readonly leases = new Map<number, RedisLease>();
  private readonly membership: EngineMembership;
  private readonly every: number;
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly workers: PartitionWorkers,
    lease: NonNullable<EnginePartitionsOptions['lease']>,
    owned: readonly number[],
    private readonly log: Logger,
  ) {
    for (const index of owned) this.leases.set(index, new RedisLease(lease.redis, lease.keyOf(index), lease.ttlMs, log, `engine partition ${index}`));
    this.membership = new EngineMembership(lease.redis, lease.membersKey, lease.ttlMs, owned);
    this.every = Math.max(1, Math.floor(lease.ttlMs / 3));
  }

  readonly loop = (): void => {
    this.round = this.claim().finally(() => {
      if (!this.stopped) this.timer = setTimeout(this.loop, this.every);
    });
  };

  /**
   * No more claims (a round under way ends first, so it neither records this
   * process again nor hands over beside the stop); this process leaves the
   * live ones at once. The leases stay held until `release`.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.round.catch(() => undefined);
    await this.membership.leave();
  }

  async release(index: number): Promise<void> {
    await this.leases.get(index)?.release();
  }

  private async claim(): Promise<void> {
    const { log, workers } = this;
    const view = await this.view();
    if (this.stopped) return;
    const give = toRelease(view);
    if (give !== undefined) return this.handOver(give, view);
    for (const [index, l] of this.leases) {
      if (this.stopped || workers.has(index) || !shouldTake({ ...view, held: workers.partitions }, index)) continue;
      try {
        if (!(await l.tryAcquire()) || this.stopped) continue;
      } catch (err) {
        log.warn('engine partition lease not reachable; trying again', { partition: index, err: err instanceof Error ? err.message : String(err) });
        continue;
      }
      log.info('engine partition acquired', { partition: index, holder: l.holder, share: shareOf(view), members: view.others.length + 1 });
      workers.start(index);
      l.keep(() => this.lost(index));
    }
  }

  /** This process and the other live ones; without Redis, this one alone (it then takes what it can, as without balancing). */
  private async view(): Promise<BalanceView> {
    const { membership, workers } = this;
    const held = workers.partitions;
    const me = { holder: membership.holder, holds: held.length, owned: membership.owned };
    try {
      const others = (await membership.refresh(held.length)).filter((m) => m.holder !== me.holder);
      return { me, held, others };
    } catch (err) {
      this.log.warn('engine members not reachable; claiming as if alone', { err: err instanceof Error ? err.message : String(err) });
      return { me, held, others: [] };
    }
  }

  /** Gives `index` up the graceful way (its worker appends what is pending, then the lease goes) for a process below its share to take. */
  private async handOver(index: number, view: BalanceView): Promise<void> {
    this.log.info('engine partition handed over for balance', { partition: index, share: shareOf(view), members: view.others.length + 1, held: view.held });
    await this.workers.release(index);
    await this.release(index);
  }

  /** Another process took a partition whose lease ran out under us (this process was paused or cut from Redis). */
  private lost(index: number): void {
    this.log.warn('engine partition lease lost to another process; stopping its worker', { partition: index });
    void this.workers.release(index);
  }
}

/** Lag: the partition furthest behind (nothing while none runs here). */
function addEngineLagProbe(workers: PartitionWorkers): () => void {
  return addScrapeProbe(async () => {
    const lags = (await Promise.all(workers.running().map(([, w]) => w.lag()))).filter((l) => l !== undefined);
    if (lags.length === 0) return;
    const worst = lags.reduce((a, b) => (b.n > a.n ? b : a));
    const oldest = lags.reduce<Date | undefined>((a, b) => (b.oldest !== undefined && (a === undefined || b.oldest < a) ? b.oldest : a), undefined);
    metrics.engineLagEvents.set(worst.n);
    metrics.engineLagSeconds.set(ageSeconds(oldest));
  });
}

export function startPartitionedEngine(opts: PartitionWorkerOptions, partitions: EnginePartitionsOptions): PartitionedEngine {
  const workers = new PartitionWorkers(opts, partitions.count);
  const lease = partitions.lease;
  let claims: PartitionClaims | undefined;
  if (lease === undefined || partitions.count === 1) {
    for (const index of partitions.owned) workers.start(index);
  } else {
    claims = new PartitionClaims(workers, lease, partitions.owned, opts.logger);
    claims.loop();
  }
  const removeProbe = addEngineLagProbe(workers);
  return {
    get partitions() {
      return workers.partitions;
    },
    get runs() {
      return workers.runs;
    },
    async stop() {
      await claims?.stop();
      removeProbe();
      // Each worker appends what is pending before its lease goes: the next owner starts from the whole output.
      await Promise.all(
        workers.running().map(async ([index, worker]) => {
          await worker.stop();
          given(index);
          await claims?.release(index);
        }),
      );
      workers.clear();
    },
  };
}
