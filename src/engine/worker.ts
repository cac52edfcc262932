// The item engine as a background worker (role `engine`): subscribes to the
// reports and job events in `$all`, feeds them to the pure engine and appends
// its changes to its partition's output stream (ENGINE_STREAM for partition 0
// of 1, the default; ./partitions.ts), one ItemsChanged per cycle. A worker
// handles the reports and item resets of its partition's facilities only. Exactly-once by
// construction: every ItemsChanged records the input position it covers, the
// engine resumes after the inputPosition of the last one (no other
// checkpoint), and appends with the revision it last wrote, so a second
// instance fails its append instead of duplicating (docs/item-processing.md,
// "Engine wiring").
import { BACKWARDS, END, NO_STREAM, StreamNotFoundError, streamNameFilter, type EventStoreDBClient, type Position } from '@eventstore/db-client';
import { isLeft } from 'fp-ts/Either';
import { TAG_REPORTS_STREAM_PREFIX } from '../agents';
import { ingestion } from '../core/ingestion-summary';
import { addScrapeProbe, ageSeconds, metrics } from '../core/metrics';
import { behindLog } from '../core/subscriptions/behind';
import { ConcurrencyError, appendEvents, forEachInStream, type StreamRevision } from '../core/eventstore';
import { decodeRecorded, encodeEvent, type RecordedDomainEvent } from '../core/events';
import type { Logger } from '../core/logger';
import type { BackgroundWork } from '../slice';
import { runSubscription, type RunningSubscription } from '../core/subscriptions';
import { JOB_STREAM_PREFIX, evolveJob, jobEvents, jobStream, initialJobState, type JobState } from '../jobs';
import type { ConfigReadModel } from '../core/resource/readmodel';
import { readerDefinitionsOf } from '../readerdefinitions';
import { recipeOf } from '../recipes';
import { currentZoneMapOf, zoneLocator } from '../zonemaps';
import { engineReaders, engineRecipeOf } from './context';
import { ingest, tick } from './engine';
import { engineReportEvents, type EngineReport } from './report';
import { ITEM_RESET_STREAM, itemResetEvents, type ItemsResetRequestedData } from '../support';
import { ENGINE_STREAM, itemEvents, type ItemsEvent } from './events';
import { engineStream, partitionOf, snapshotDirOf } from './partitions';
import { resetFacility } from './reset';
import { restoreState } from './restore';
import { captureState, chunkCount, encodeSections, type SnapshotHeader } from './snapshot';
import { writeSnapshot } from './snapshot-store';
import { emptyState, endJob, runtimeOf } from './state';
import type { EngineState, ItemChange, JobContext } from './types';
import type { ThresholdJobContext } from './threshold/context';
import { thresholdContextOf } from './threshold/job-context';
import type { OpenPassages } from './threshold/passages';
import { emptyOutput, ThresholdTracker, type ThresholdOutput } from './threshold/tracker';

// About 450 bytes of JSON per change: 1000 changes stay well under 1 MiB.
const MAX_CHANGES_PER_EVENT = 1000;
// Threshold transitions and iteration records are about 350 bytes each: 300 of each beside 1000 changes stay under it too.
const MAX_THRESHOLD_RECORDS_PER_EVENT = 300;

export interface EngineWorkerOptions {
  readonly client: EventStoreDBClient;
  readonly readModel: ConfigReadModel;
  readonly logger: Logger;
  /** Wall clock (epoch ms) for tick and ItemsChanged.at. */
  readonly clock?: () => number;
  /** How often pending changes are appended (and tick runs). Default 250 ms. */
  readonly cycleMs?: number;
  /** Pending changes that trigger an append before the cycle ends. Default 500. */
  readonly maxChanges?: number;
  /** Minimum time between two ticks. Default 500 ms. */
  readonly tickMs?: number;
  /** How long a job's context (recipe, readers, zone map) is reused before it is rebuilt. Default 5 s. */
  readonly contextTtlMs?: number;
  /** Pause before resyncing after a failure (fenced, append or handler error). Default 1 s. */
  readonly retryMs?: number;
  /** State snapshots (docs/item-processing.md, "Snapshots"); undefined = none, every start replays the whole stream. */
  readonly snapshots?: EngineSnapshotOptions;
  /**
   * The partition this worker writes for (docs/scaling.md, "Engine
   * partitions"): the facilities it handles, its output stream and its
   * snapshot directory. Default: partition 0 of 1 (every facility, ENGINE_STREAM).
   */
  readonly partition?: { readonly index: number; readonly count: number };
  /** Registers the engine lag probe (default true); a process with several partitions registers one for all instead. */
  readonly lagProbe?: boolean;
}

export interface EngineSnapshotOptions {
  /** Directory of the snapshot files (DATA_DIR/engine-snapshots). */
  readonly dir: string;
  /** A snapshot is taken after an append once this many changes were appended since the last one (0: not by count). */
  readonly everyChanges: number;
  /** ... or once this long has passed since the last one (or the start) and something was appended (0: not by time). */
  readonly everyMs: number;
}

export interface EngineWorker extends BackgroundWork {
  /** Number of runs started (1 + resyncs): for tests and logs. */
  readonly runs: number;
  /** Input after what the current run has handled (none while no run is going). */
  lag(): Promise<{ n: number; oldest: Date | undefined } | undefined>;
}

// Item reset requests (support) are inputs too: carried out in order with the reports.
// Reports are decoded straight into the engine's columns (report.ts), not into an object per observation.
const INPUT_CODECS = { ...engineReportEvents, ...jobEvents, ...itemResetEvents };
type InputEvent = RecordedDomainEvent<
  { type: 'TagsReported'; data: EngineReport } | { type: 'ItemsResetRequested'; data: ItemsResetRequestedData } | Parameters<typeof evolveJob>[1]
>;

/** Where ENGINE_STREAM ends: its last revision and the input position its last event covers. */
export interface LastOutput {
  readonly revision: StreamRevision;
  readonly inputPosition: string | undefined;
}

/** Reads the last ItemsChanged of a partition's output stream (backwards, one event). */
export async function readLastOutput(client: EventStoreDBClient, stream: string = ENGINE_STREAM): Promise<LastOutput> {
  let last: LastOutput = { revision: NO_STREAM, inputPosition: undefined };
  let failure: unknown;
  try {
    for await (const resolved of client.readStream(stream, { direction: BACKWARDS, fromRevision: END, maxCount: 1 })) {
      const decoded = decodeRecorded(resolved, itemEvents);
      if (isLeft(decoded)) failure = decoded.left;
      else last = { revision: decoded.right.revision, inputPosition: decoded.right.data.inputPosition };
    }
  } catch (err) {
    if (err instanceof StreamNotFoundError) return last;
    throw err;
  }
  if (failure !== undefined) throw failure;
  return last;
}

const positionOf = (commit: string): Position => ({ commit: BigInt(commit), prepare: BigInt(commit) });

/** What the engine reads from the log. */
const INPUT_FILTER = streamNameFilter({ prefixes: [TAG_REPORTS_STREAM_PREFIX, JOB_STREAM_PREFIX, ITEM_RESET_STREAM] });

/** A job as the engine needs it: its folded state and where in `$all` it stopped. */
interface JobInfo {
  readonly job: JobState;
  readonly stoppedAt: bigint | undefined;
}

async function loadJob(client: EventStoreDBClient, jobId: string): Promise<JobInfo> {
  let job = initialJobState;
  let stoppedAt: bigint | undefined;
  await forEachInStream(client, jobStream(jobId), jobEvents, (e) => {
    job = evolveJob(job, e);
    if (e.type === 'JobStopped') stoppedAt = e.position?.commit ?? 0n;
  });
  return { job, stoppedAt };
}

/** The JobContext of an item job (INVENTORY or LOCATION recipe), or undefined. */
export async function jobContextOf(readModel: ConfigReadModel, job: JobState): Promise<JobContext | undefined> {
  const req = job.job;
  if (req === null) return undefined;
  const recipe = await recipeOf(readModel, req.recipeName);
  if (recipe === undefined || (recipe.type !== 'INVENTORY' && recipe.type !== 'LOCATION')) return undefined;
  const [defs, zoneMap] = await Promise.all([readerDefinitionsOf(readModel), currentZoneMapOf(readModel, req.facility)]);
  return {
    jobId: job.id,
    facility: req.facility,
    recipe: engineRecipeOf(recipe),
    flags: {
      reportToDatabaseEnabled: req.reportToDatabaseEnabled,
      reportToHistoryEnabled: req.reportToHistoryEnabled,
      reportToMessageQueueEnabled: req.reportToMessageQueueEnabled,
    },
    useOtherJobData: req.useOtherJobData,
    readers: engineReaders(defs),
    locator: zoneMap === undefined ? undefined : zoneLocator(zoneMap),
  };
}

interface CachedJob {
  readonly info: JobInfo;
  readonly ctx: JobContext | undefined;
  /** Set for THRESHOLD jobs (then ctx is undefined). */
  readonly threshold: ThresholdJobContext | undefined;
  readonly loadedAt: number;
}

/**
 * One run: state rebuilt from ENGINE_STREAM, a subscription after the last
 * inputPosition, a cycle timer. Any failure ends the run (its state may be
 * ahead of what was appended); the worker then starts a new one, which
 * rebuilds from the output: the output is the only truth.
 */
class EngineRun {
  private state: EngineState = emptyState();
  private revision: StreamRevision = NO_STREAM;
  /** Input position covered by what is appended plus what is pending. */
  private inputPosition: string | undefined;
  private pending: ItemChange[] = [];
  /** Threshold transitions (and iteration records) decided since the last append; they go out with the changes. */
  private pendingThreshold: ThresholdOutput = emptyOutput();
  private readonly thresholds = new ThresholdTracker();
  /** The last append carried open passages: the next one carries them again, if only to say none is left. */
  private carriedPassages = false;
  /** Input position claimed by the last ItemsChanged appended by this run. */
  private flushedInputPosition: string | undefined;
  private readonly jobs = new Map<string, CachedJob>();
  private sub: RunningSubscription | undefined;
  private timer: NodeJS.Timeout | undefined;
  private caughtUp = false;
  private lastTick = -Infinity;
  private failed = false;
  private stopping: Promise<void> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly clock: () => number;
  private readonly log: Logger;
  /** Id of the last ItemsChanged this run appended (a snapshot names it). */
  private lastEventId: string | undefined;
  private changesSinceSnapshot = 0;
  /** Append time of the oldest report behind the pending changes: report -> item latency, one sample per append. */
  private oldestPendingReportMs: number | undefined;
  private lastSnapshotAt = 0;
  private snapshotting: Promise<void> | undefined;
  /** This partition's output stream. */
  private readonly stream: string;
  private readonly partition: { readonly index: number; readonly count: number };
  private readonly snapshots: EngineSnapshotOptions | undefined;

  constructor(
    private readonly opts: EngineWorkerOptions,
    private readonly onFailure: (run: EngineRun, err: unknown) => void,
  ) {
    this.clock = opts.clock ?? Date.now;
    this.log = opts.logger;
    this.partition = opts.partition ?? { index: 0, count: 1 };
    this.stream = engineStream(this.partition.index);
    this.snapshots = opts.snapshots === undefined ? undefined : { ...opts.snapshots, dir: snapshotDirOf(opts.snapshots.dir, this.partition.index) };
  }

  /** Whether this partition handles a facility's reports and item resets. */
  private owns(facility: string): boolean {
    return partitionOf(facility, this.partition.count) === this.partition.index;
  }

  /** Runs `work` alone: the handler and the cycle never interleave, so an append never covers half a batch. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private fail(err: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.onFailure(this, err);
  }

  async start(): Promise<void> {
    const last = await readLastOutput(this.opts.client, this.stream);
    await this.rebuild(last);
    if (this.stopping) return;
    const resume = last.inputPosition;
    this.sub = runSubscription({
      client: this.opts.client,
      name: 'item-engine',
      codecs: INPUT_CODECS,
      filter: INPUT_FILTER,
      // The engine's own output is its checkpoint: nothing is saved elsewhere.
      checkpointStore: { load: () => Promise.resolve(resume === undefined ? undefined : positionOf(resume)), save: () => Promise.resolve() },
      checkpointMode: 'handler',
      handler: (events, position) => this.exclusive(() => this.handle(events, position)),
      logger: this.log,
      maxBatchSize: 500,
      onCaughtUp: () => {
        this.caughtUp = true;
      },
    });
    const cycleMs = this.opts.cycleMs ?? 250;
    this.timer = setInterval(() => {
      void this.exclusive(() => this.cycle()).catch((err: unknown) => this.fail(err));
    }, cycleMs);
    this.log.info('item engine started', { partition: this.partition.index, partitions: this.partition.count, stream: this.stream, resumeAfter: resume ?? 'start', revision: String(this.revision), items: this.state.shared.size });
  }

  /**
   * Rebuilds the state of the output up to `last`: the newest usable
   * snapshot, then the events after it (restore.ts). Jobs are read once each
   * to know whether they had stopped by the resume point; running jobs are
   * registered so their items keep expiring without waiting for a report.
   */
  /** The input handled so far (appended or pending): where its lag is measured from. */
  get handledPosition(): Position | undefined {
    return this.inputPosition === undefined ? undefined : positionOf(this.inputPosition);
  }

  private async rebuild(last: LastOutput): Promise<void> {
    this.revision = last.revision;
    this.inputPosition = last.inputPosition;
    this.flushedInputPosition = last.inputPosition;
    this.lastSnapshotAt = this.clock();
    if (last.revision === NO_STREAM) return;
    const restored = await restoreState(
      {
        client: this.opts.client,
        stream: this.stream,
        logger: this.log,
        snapshotDir: this.snapshots?.dir,
        contextOf: (jobId) => this.contextOf(jobId),
        useOtherJobDataOf: async (jobId) => (await this.cachedJob(jobId)).info.job.job?.useOtherJobData ?? true,
      },
      { revision: last.revision, inputPosition: last.inputPosition },
    );
    this.state = restored.state;
    const resumeAt = last.inputPosition === undefined ? 0n : BigInt(last.inputPosition);
    for (const jobId of restored.jobIds) {
      const { info, ctx } = await this.cachedJob(jobId);
      if (info.stoppedAt !== undefined && info.stoppedAt <= resumeAt) endJob(this.state, jobId);
      else if (ctx !== undefined) runtimeOf(this.state, ctx);
    }
    // Open passages of THRESHOLD jobs still running at the resume point go on where they were.
    const thresholdContexts = new Map<string, ThresholdJobContext>();
    for (const { jobId } of restored.passages) {
      const { info, threshold } = await this.cachedJob(jobId);
      if (threshold !== undefined && !(info.stoppedAt !== undefined && info.stoppedAt <= resumeAt)) thresholdContexts.set(jobId, threshold);
    }
    this.thresholds.restore(restored.passages, (jobId) => thresholdContexts.get(jobId));
    this.carriedPassages = restored.passages.length > 0;
    this.log.info('item engine state restored', {
      snapshotRevision: restored.snapshot?.revision ?? 'none',
      replayedEvents: restored.replayedEvents,
      replayedChanges: restored.replayedChanges,
      loadMs: restored.loadMs,
      replayMs: restored.replayMs,
    });
  }

  private async cachedJob(jobId: string): Promise<CachedJob> {
    const cached = this.jobs.get(jobId);
    const now = this.clock();
    if (cached !== undefined && now - cached.loadedAt < (this.opts.contextTtlMs ?? 5000)) return cached;
    const info = await loadJob(this.opts.client, jobId);
    const ctx = info.job.status === 'NONE' ? undefined : await jobContextOf(this.opts.readModel, info.job);
    const threshold = info.job.status === 'NONE' || ctx !== undefined ? undefined : await thresholdContextOf(this.opts.readModel, info.job);
    const entry = { info, ctx, threshold, loadedAt: now };
    this.jobs.set(jobId, entry);
    return entry;
  }

  private async contextOf(jobId: string): Promise<JobContext | undefined> {
    return (await this.cachedJob(jobId)).ctx;
  }

  private async handle(events: ReadonlyArray<InputEvent>, position: Position): Promise<void> {
    // A failed run must not apply a batch twice (the subscription retries failed batches).
    if (this.failed || this.stopping) throw new Error('item engine run is stopping');
    try {
      // Input covered by the events before the current one (an item reset claims only that for the changes before it).
      let covered = this.inputPosition;
      for (const e of events) {
        if (e.type === 'ItemsResetRequested') {
          // Another partition's facility: that partition records the reset in its own output.
          if (this.owns(e.data.facility)) await this.resetItems(e, covered);
        } else if (e.type === 'TagsReported') {
          const jobId = e.data.jobId;
          const { info, ctx, threshold } = await this.cachedJob(jobId);
          // Reports of an unknown job, of a DO_NOTHING or LLRP recipe, or arriving after the job stopped, place nothing.
          if (ctx === undefined && threshold === undefined) continue;
          // A job runs in one facility: its reports belong to that facility's partition.
          if (!this.owns(info.job.job?.facility ?? ctx?.facility ?? '')) continue;
          const at = e.position?.commit;
          if (info.stoppedAt !== undefined && (at === undefined || info.stoppedAt < at)) continue;
          // The report's append time is the engine's time for it, so a replay reproduces it.
          if (ctx !== undefined) {
            const { changes } = ingest(this.state, e.data, ctx, e.created.getTime());
            this.pending.push(...changes);
            if (changes.length > 0) this.oldestPendingReportMs ??= e.created.getTime();
          }
          else if (threshold !== undefined) this.thresholds.ingest(e.data, threshold, e.created.getTime(), this.pendingThreshold);
        } else {
          const jobId = e.streamId.slice(JOB_STREAM_PREFIX.length);
          this.jobs.delete(jobId); // refreshed on the job's next report
          if (e.type === 'JobStopped') {
            endJob(this.state, jobId);
            // Passages still open when the job stops are decided on the reads it had.
            this.thresholds.endJob(jobId, e.created.getTime(), this.pendingThreshold);
          }
        }
        covered = e.position?.commit.toString() ?? covered;
      }
      this.inputPosition = position.commit.toString();
      if (this.pending.length >= (this.opts.maxChanges ?? 500)) await this.flush();
    } catch (err) {
      this.fail(err);
      throw err;
    }
  }

  /** Every cycle: tick when caught up and due, then append what is pending. */
  private async cycle(): Promise<void> {
    if (this.failed || this.stopping) return;
    const now = this.clock();
    if (this.caughtUp && now - this.lastTick >= (this.opts.tickMs ?? 500)) {
      this.lastTick = now;
      this.pending.push(...tick(this.state, now).changes);
      this.thresholds.sweep(now, this.pendingThreshold);
    }
    await this.flush();
  }

  /**
   * Appends the pending changes, fenced by the revision this run last wrote.
   * One ItemsChanged holds at most MAX_CHANGES_PER_EVENT changes so an append
   * stays under the event store's size limit (1 MiB by default). When a
   * batch needs several events, all but the last claim only the input
   * covered before the batch: a crash between them makes the next run ingest
   * the batch again on top of the state the written part already produced,
   * which repeats none of its history (the items are already where the
   * written changes put them).
   */
  private async flush(): Promise<void> {
    const threshold = this.pendingThreshold;
    if ((this.pending.length === 0 && threshold.transitions.length === 0 && threshold.iterations.length === 0) || this.failed) return;
    if (this.inputPosition === undefined) throw new Error('item changes without any input position');
    const changes = this.pending;
    this.pending = [];
    this.pendingThreshold = emptyOutput();
    const events = Math.max(
      1,
      Math.ceil(changes.length / MAX_CHANGES_PER_EVENT),
      Math.ceil(threshold.transitions.length / MAX_THRESHOLD_RECORDS_PER_EVENT),
      Math.ceil(threshold.iterations.length / MAX_THRESHOLD_RECORDS_PER_EVENT),
    );
    for (let k = 0; k < events; k++) {
      const last = k === events - 1;
      const inputPosition = last ? this.inputPosition : (this.flushedInputPosition ?? '0');
      const part = <T>(list: T[], max: number): T[] => list.slice(k * max, (k + 1) * max);
      const transitions = part(threshold.transitions, MAX_THRESHOLD_RECORDS_PER_EVENT);
      const iterations = part(threshold.iterations, MAX_THRESHOLD_RECORDS_PER_EVENT);
      await this.append({
        inputPosition,
        at: this.clock(),
        changes: part(changes, MAX_CHANGES_PER_EVENT),
        ...(transitions.length > 0 ? { transitions } : {}),
        ...(iterations.length > 0 ? { iterations } : {}),
        // The open passages as of the input the event claims: only the last part claims the newest input.
        ...(last ? this.passagesField() : {}),
      });
    }
    if (this.oldestPendingReportMs !== undefined) metrics.reportToItemSeconds.observe(Math.max(0, Date.now() - this.oldestPendingReportMs) / 1000);
    this.oldestPendingReportMs = undefined;
    this.changesSinceSnapshot += changes.length;
    this.maybeSnapshot();
  }

  /**
   * The open threshold passages for an append that claims all input handled
   * so far: a restart resumes after that input, so the reads of a passage not
   * decided yet come back from here (restore.ts), not from the input.
   */
  private passagesField(): { passages?: OpenPassages } {
    if (!this.thresholds.active && !this.carriedPassages) return {};
    const passages = this.thresholds.openPassages();
    this.carriedPassages = passages.length > 0;
    return { passages };
  }

  /** Appends one ItemsChanged, fenced by the revision this run last wrote. */
  private async append(data: Extract<ItemsEvent, { type: 'ItemsChanged' }>['data']): Promise<void> {
    const event = encodeEvent(itemEvents, { type: 'ItemsChanged', data });
    try {
      const outcome = await appendEvents(this.opts.client, this.stream, [event], this.revision);
      this.revision = outcome.nextExpectedRevision;
      ingestion.itemsChanged(data.changes.length);
      this.flushedInputPosition = data.inputPosition;
      this.lastEventId = event.id;
    } catch (err) {
      if (err instanceof ConcurrencyError) this.log.warn('engine output stream written by someone else: fenced, resyncing', { stream: this.stream, err: err.message });
      this.fail(err);
      throw err;
    }
  }

  /**
   * An item reset (docs/support.md): the changes pending before it are
   * appended first, claiming only the input before the request; then the
   * facility's items leave the state and an ItemsChanged with no changes and
   * the `reset` record claims the request's position. Every consumer (and
   * the engine's own restore) meets the reset at the same place in the log.
   */
  private async resetItems(e: RecordedDomainEvent<{ type: 'ItemsResetRequested'; data: ItemsResetRequestedData }>, covered: string | undefined): Promise<void> {
    const at = e.position?.commit;
    if (at === undefined) throw new Error(`ItemsResetRequested ${e.id} has no $all position`);
    if (this.pending.length > 0) {
      this.inputPosition = covered;
      await this.flush();
    }
    const dropped = resetFacility(this.state, e.data.facility);
    this.inputPosition = at.toString();
    await this.append({
      inputPosition: this.inputPosition,
      at: this.clock(),
      changes: [],
      reset: { facility: e.data.facility, clearHistory: e.data.clearHistory, requestId: e.id },
      ...this.passagesField(),
    });
    this.log.info('item engine: items of a facility reset', { facility: e.data.facility, clearHistory: e.data.clearHistory, dropped, requestId: e.id });
  }

  /**
   * Right after an append the state is exactly what the output up to the
   * last event implies (handler and cycle are serialized, nothing is
   * pending): the moment to capture it. Capturing copies references (cheap);
   * encoding and writing run in the background, one snapshot at a time.
   */
  private maybeSnapshot(): void {
    const opts = this.snapshots;
    if (opts === undefined || this.snapshotting !== undefined || this.failed) return;
    if (this.revision === NO_STREAM || this.lastEventId === undefined || this.inputPosition === undefined) return;
    const now = this.clock();
    const byCount = opts.everyChanges > 0 && this.changesSinceSnapshot >= opts.everyChanges;
    const byTime = opts.everyMs > 0 && now - this.lastSnapshotAt >= opts.everyMs;
    if (!byCount && !byTime) return;
    this.changesSinceSnapshot = 0;
    this.lastSnapshotAt = now;
    const started = Date.now();
    const captured = captureState(this.state);
    const captureMs = Date.now() - started;
    const header: SnapshotHeader = {
      position: { revision: this.revision.toString(), eventId: this.lastEventId, inputPosition: this.inputPosition },
      takenAt: now,
      passages: this.thresholds.openPassages(),
      isolated: [...captured.isolated],
      items: captured.views.reduce((n, v) => n + v.items.length, 0),
      chunks: chunkCount(captured),
    };
    this.snapshotting = writeSnapshot(opts.dir, header, encodeSections(captured))
      .then(({ bytes }) => this.log.info('engine snapshot written', { revision: header.position.revision, items: header.items, bytes, captureMs, ms: Date.now() - started }))
      // A snapshot is a cache: failing to write one costs a longer replay at the next start, nothing else.
      .catch((err: unknown) => this.log.warn('engine snapshot not written', { err: err instanceof Error ? err.message : String(err) }))
      .finally(() => {
        this.snapshotting = undefined;
      });
  }

  /** Stops the subscription and the cycle; appends what is pending unless the run failed. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      if (this.timer !== undefined) clearInterval(this.timer);
      await this.sub?.stop();
      await this.exclusive(async () => {
        if (!this.failed) await this.flush();
      }).catch((err: unknown) => this.log.warn('item engine: final append failed (the next run redoes it)', { err: String(err) }));
      await this.snapshotting;
    })();
    return this.stopping;
  }
}

export function startEngineWorker(opts: EngineWorkerOptions): EngineWorker {
  const log = opts.logger;
  let current: EngineRun | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let runs = 0;

  const launch = (): void => {
    if (stopped) return;
    runs++;
    const run = new EngineRun(opts, (failed, err) => void restart(failed, err));
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
    retry = setTimeout(launch, opts.retryMs ?? 1000);
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
      if (retry !== undefined) clearTimeout(retry);
      await current?.stop();
    },
  };
}
