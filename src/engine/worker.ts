// The item engine as a background worker (role `engine`): subscribes to the
// reports, job, configuration and clock events in `$all`, feeds them to the pure engine and appends
// its changes to its partition's output stream (ENGINE_STREAM for partition 0
// of 1, the default; ./partitions.ts), one ItemsChanged per cycle. A worker
// handles the reports and item resets of its partition's facilities only. Exactly-once by
// construction: every ItemsChanged records the input position it covers, the
// engine resumes after the inputPosition of the last one (no other
// checkpoint), and appends with the revision it last wrote, so a second
// instance fails its append instead of duplicating (docs/item-processing.md,
// "Engine wiring").
//
// The parts: input.ts (the input feed), pending.ts (what a cycle appends),
// output.ts (the fenced append), snapshotter.ts, jobs-book.ts and configuration.ts (the jobs' contexts), clock.ts, run.ts (one
// run, from the output's end to its first failure); here, the restarts.
import type { EventStoreDBClient } from '@eventstore/db-client';
import { addScrapeProbe, ageSeconds, metrics } from '../core/metrics';
import { backoffDelay, sleep, type BackoffPolicy } from '../core/retry';
import { behindLog } from '../core/subscriptions/behind';
import type { Logger } from '../core/logger';
import type { BackgroundWork } from '../slice';
import { INPUT_FILTER } from './input';
import { snapshotDirOf } from './partitions';
import { EngineRun } from './run';
import type { SnapshotPolicy } from './snapshotter';
import { SnapshotDirLock } from './snapshot-lock';

export interface EngineWorkerOptions {
  readonly client: EventStoreDBClient;
  readonly logger: Logger;
  /** Wall clock (epoch ms): when to append, snapshot and tick the log's clock (the engine decides with the log's time). */
  readonly clock?: () => number;
  /** How often pending changes are appended. Default 250 ms. */
  readonly cycleMs?: number;
  /** Pending changes that trigger an append before the cycle ends. Default 500. */
  readonly maxChanges?: number;
  /** Expiry and LOCATION computations run each time the engine's (log) time passes a multiple of this. Default 500 ms. */
  readonly tickMs?: number;
  /** How long the log may stay quiet while a job runs before a clock tick is appended (./clock.ts). Default 1 s. */
  readonly clockTickMs?: number;
  /** Pause before resyncing after a failure (fenced, append or handler error). Default 1 s. */
  readonly retryMs?: number;
  /** State snapshots (docs/item-processing.md, "Snapshots"); undefined = none, every start replays the whole stream. */
  readonly snapshots?: SnapshotPolicy;
  /**
   * The partition this worker writes for (docs/scaling.md, "Engine
   * partitions"): the facilities it handles, its output stream and its
   * snapshot directory. Default: partition 0 of 1 (every facility, ENGINE_STREAM).
   */
  readonly partition?: { readonly index: number; readonly count: number };
  /** Registers the engine lag probe (default true); a process with several partitions registers one for all instead. */
  readonly lagProbe?: boolean;
}

export interface EngineWorker extends BackgroundWork {
  /** Number of runs started (1 + resyncs): for tests and logs. */
  readonly runs: number;
  /** Input after what the current run has handled (undefined while no run is going). */
  lag(): Promise<{ n: number; oldest: Date | undefined } | undefined>;
}

/** The options of each run, defaults filled in. */
function runOptionsOf(opts: EngineWorkerOptions) {
  const partition = opts.partition ?? { index: 0, count: 1 };
  return {
    client: opts.client,
    logger: opts.logger,
    clock: opts.clock ?? Date.now,
    cycleMs: opts.cycleMs ?? 250,
    maxChanges: opts.maxChanges ?? 500,
    tickMs: opts.tickMs ?? 500,
    clockTickMs: opts.clockTickMs ?? 1000,
    partition,
    snapshots: opts.snapshots === undefined ? undefined : { ...opts.snapshots, dir: snapshotDirOf(opts.snapshots.dir, partition.index) },
  };
}

export function startEngineWorker(opts: EngineWorkerOptions): EngineWorker {
  const log = opts.logger;
  const runOptions = runOptionsOf(opts);
  let current: EngineRun | undefined;
  let stopped = false;
  const stopping = new AbortController();
  // A fixed pause: each run starts from the output, so there is nothing to back off from but the failure itself.
  const pause: BackoffPolicy = { initialMs: opts.retryMs ?? 1000, maxMs: opts.retryMs ?? 1000, factor: 1 };
  let runs = 0;
  const snapshotLock = runOptions.snapshots === undefined ? undefined : new SnapshotDirLock(runOptions.snapshots.dir, log);

  const launch = (): void => {
    if (stopped) {
      void snapshotLock?.release();
      return;
    }
    if (snapshotLock && !snapshotLock.held) {
      // Another process still writes this partition's snapshots (a hand-over not yet finished, or a second engine on one DATA_DIR).
      void snapshotLock.take().then((held) => (held ? launch() : sleep(backoffDelay(pause, 0), stopping.signal).then(launch)));
      return;
    }
    runs++;
    const run = new EngineRun(runOptions, (failed, err) => void restart(failed, err));
    current = run;
    run.start().catch((err: unknown) => void restart(run, err));
  };
  const restarting = new WeakSet<EngineRun>();
  const restart = async (run: EngineRun, err: unknown): Promise<void> => {
    if (current !== run || restarting.has(run)) return;
    restarting.add(run);
    log.warn('item engine run failed; resyncing from ENGINE_STREAM', { err: err instanceof Error ? err.message : String(err) });
    await run.stop();
    if (stopped || current !== run) return;
    await sleep(backoffDelay(pause, 0), stopping.signal);
    launch();
  };
  launch();
  const lag = async (): Promise<{ n: number; oldest: Date | undefined } | undefined> =>
    current === undefined ? undefined : behindLog(opts.client, INPUT_FILTER, current.handledPosition);
  // Lag: the input after what the current run has handled (nothing while none runs).
  const removeProbe = opts.lagProbe === false ? () => undefined : addScrapeProbe(async () => {
    const late = await lag();
    if (late === undefined) return;
    metrics.engineLagEvents.set(late.n);
    metrics.engineLagSeconds.set(ageSeconds(late.oldest));
  });
  return {
    get runs() {
      return runs;
    },
    lag,
    async stop() {
      removeProbe();
      stopped = true;
      stopping.abort();
      await current?.stop();
      await snapshotLock?.release();
    },
  };
}
