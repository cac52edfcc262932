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
import type { RedisClient } from '../core/redis/connect';
import { RedisLease } from '../core/redis/lease';
import { addScrapeProbe, ageSeconds, metrics } from '../core/metrics';
import type { BackgroundWork } from '../slice';
import { startEngineWorker, type EngineWorker, type EngineWorkerOptions } from './worker';

export interface EnginePartitionsOptions {
  /** Partitions in all (ENGINE_PARTITIONS). */
  readonly count: number;
  /** Partitions this process may own (ENGINE_PARTITION_IDS). */
  readonly owned: readonly number[];
  /** The lease of each partition; needed with more than one partition. */
  readonly lease?: { readonly redis: RedisClient; readonly keyOf: (partition: number) => string; readonly ttlMs: number };
}

export interface PartitionedEngine extends BackgroundWork {
  /** Partitions whose worker runs in this process now, ascending. */
  readonly partitions: readonly number[];
  /** Runs started by all its workers (1 per partition plus resyncs). */
  readonly runs: number;
}

export function startPartitionedEngine(opts: Omit<EngineWorkerOptions, 'partition' | 'lagProbe'>, partitions: EnginePartitionsOptions): PartitionedEngine {
  const log = opts.logger;
  const workers = new Map<number, EngineWorker>();
  let stopped = false;
  let finishedRuns = 0;
  const startWorker = (index: number): EngineWorker => {
    // Who runs which partition, seen from outside: a hand-over shows as the gauge moving between processes.
    metrics.enginePartitionOwned.set({ partition: String(index) }, 1);
    return startEngineWorker({ ...opts, logger: log.child('item-engine', { partition: index }), partition: { index, count: partitions.count }, lagProbe: false });
  };
  const given = (index: number): void => {
    metrics.enginePartitionOwned.set({ partition: String(index) }, 0);
  };

  let timer: NodeJS.Timeout | undefined;
  const leases = new Map<number, RedisLease>();
  const lease = partitions.lease;
  if (lease === undefined || partitions.count === 1) {
    for (const index of partitions.owned) workers.set(index, startWorker(index));
  } else {
    for (const index of partitions.owned) {
      leases.set(index, new RedisLease(lease.redis, lease.keyOf(index), lease.ttlMs, log, `engine partition ${index}`));
    }
    const release = async (index: number): Promise<void> => {
      const worker = workers.get(index);
      workers.delete(index);
      if (worker !== undefined) {
        finishedRuns += worker.runs;
        await worker.stop();
        given(index);
      }
    };
    // Another process took a partition whose lease ran out under us (this process was paused or cut from Redis).
    const lost = (index: number): void => {
      log.warn('engine partition lease lost to another process; stopping its worker', { partition: index });
      void release(index);
    };
    const claim = async (): Promise<void> => {
      for (const [index, l] of leases) {
        if (stopped || workers.has(index)) continue;
        try {
          if (!(await l.tryAcquire()) || stopped) continue;
        } catch (err) {
          log.warn('engine partition lease not reachable; trying again', { partition: index, err: err instanceof Error ? err.message : String(err) });
          continue;
        }
        log.info('engine partition acquired', { partition: index, holder: l.holder });
        workers.set(index, startWorker(index));
        l.keep(() => lost(index));
      }
    };
    const every = Math.max(1, Math.floor(lease.ttlMs / 3));
    const loop = (): void => {
      void claim().finally(() => {
        if (!stopped) timer = setTimeout(loop, every);
      });
    };
    loop();
  }

  // Lag: the partition furthest behind (nothing while none runs here).
  const removeProbe = addScrapeProbe(async () => {
    const lags = (await Promise.all([...workers.values()].map((w) => w.lag()))).filter((l) => l !== undefined);
    if (lags.length === 0) return;
    const worst = lags.reduce((a, b) => (b.n > a.n ? b : a));
    const oldest = lags.reduce<Date | undefined>((a, b) => (b.oldest !== undefined && (a === undefined || b.oldest < a) ? b.oldest : a), undefined);
    metrics.engineLagEvents.set(worst.n);
    metrics.engineLagSeconds.set(ageSeconds(oldest));
  });

  return {
    get partitions() {
      return [...workers.keys()].sort((a, b) => a - b);
    },
    get runs() {
      return finishedRuns + [...workers.values()].reduce((n, w) => n + w.runs, 0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      removeProbe();
      // Each worker appends what is pending before its lease goes: the next owner starts from the whole output.
      await Promise.all(
        [...workers.entries()].map(async ([index, worker]) => {
          await worker.stop();
          given(index);
          await leases.get(index)?.release();
        }),
      );
      workers.clear();
    },
  };
}
