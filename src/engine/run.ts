// One run of the item engine for one partition (./partitions.ts; the only
// one by default): state rebuilt from its output stream (ENGINE_STREAM for
// partition 0), the input feed after the last inputPosition, of which it
// handles its facilities' reports and item resets, a cycle timer. Any failure ends the run
// (its state may be ahead of what was appended); the worker then starts a new
// one, which rebuilds from the output: the output is the only truth.
import { NO_STREAM, type EventStoreDBClient, type Position } from '@eventstore/db-client';
import { metrics } from '../core/metrics';
import type { Logger } from '../core/logger';
import type { ConfigReadModel } from '../core/resource/readmodel';
import type { RunningSubscription } from '../core/subscriptions';
import { JOB_STREAM_PREFIX } from '../jobs';
import { ingest, tick } from './engine';
import { positionOf, subscribeToInput, type InputEvent, type ItemsResetRequest } from './input';
import { JobCache } from './job-cache';
import { FencedOutput, outputParts, readLastOutput, type ItemsChangedData, type LastOutput } from './output';
import { engineStream, partitionOf } from './partitions';
import { PendingOutput } from './pending';
import { resetFacility } from './reset';
import { restoreState } from './restore';
import { Snapshotter, type SnapshotPolicy } from './snapshotter';
import { emptyState, endJob, runtimeOf } from './state';
import type { ThresholdJobContext } from './threshold/context';
import type { OpenPassages } from './threshold/passages';
import { ThresholdTracker } from './threshold/tracker';
import type { EngineState } from './types';

export interface EngineRunOptions {
  readonly client: EventStoreDBClient;
  readonly readModel: ConfigReadModel;
  readonly logger: Logger;
  readonly clock: () => number;
  readonly cycleMs: number;
  readonly maxChanges: number;
  readonly tickMs: number;
  readonly contextTtlMs: number;
  /** Snapshots of this partition (its own directory). */
  readonly snapshots: SnapshotPolicy | undefined;
  /** The partition this run writes for, of how many. */
  readonly partition: { readonly index: number; readonly count: number };
}

type TagsReportedInput = Extract<InputEvent, { type: 'TagsReported' }>;
type JobInput = Exclude<InputEvent, { type: 'TagsReported' | 'ItemsResetRequested' }>;

export class EngineRun {
  private state: EngineState = emptyState();
  private output: FencedOutput | undefined;
  /** Input position covered by what is appended plus what is pending. */
  private inputPosition: string | undefined;
  /** Input position whose item changes are all appended: read models can have them. */
  private appendedPosition: string | undefined;
  private readonly pending = new PendingOutput();
  private readonly thresholds = new ThresholdTracker();
  /** The last append carried open passages: the next one carries them again, if only to say none is left. */
  private carriedPassages = false;
  private readonly jobs: JobCache;
  private snapshots: Snapshotter | undefined;
  private sub: RunningSubscription | undefined;
  private timer: NodeJS.Timeout | undefined;
  private caughtUp = false;
  private lastTick = -Infinity;
  private failed = false;
  private stopping: Promise<void> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly log: Logger;
  /** This partition's output stream. */
  private readonly stream: string;

  constructor(
    private readonly opts: EngineRunOptions,
    private readonly onFailure: (run: EngineRun, err: unknown) => void,
  ) {
    this.log = opts.logger;
    this.stream = engineStream(opts.partition.index);
    this.jobs = new JobCache(opts.client, opts.readModel, opts.clock, opts.contextTtlMs);
  }

  /**
   * The input whose changes are appended: where its lag is measured from.
   * Input handled into pending changes is not done yet: until the cycle
   * appends them no read model can show them, so a caller that waits for a
   * lag of 0 sees what that input did.
   */
  get handledPosition(): Position | undefined {
    return this.appendedPosition === undefined ? undefined : positionOf(this.appendedPosition);
  }

  async start(): Promise<void> {
    const last = await readLastOutput(this.opts.client, this.stream);
    await this.rebuild(last);
    if (this.stopping) return;
    this.sub = subscribeToInput({
      client: this.opts.client,
      logger: this.log,
      resumeAfter: last.inputPosition,
      handler: (events, position) => this.exclusive(() => this.handle(events, position)),
      onCaughtUp: () => {
        this.caughtUp = true;
      },
    });
    this.timer = setInterval(() => {
      void this.exclusive(() => this.cycle()).catch((err: unknown) => this.fail(err));
    }, this.opts.cycleMs);
    this.log.info('item engine started', { partition: this.opts.partition.index, partitions: this.opts.partition.count, stream: this.stream, resumeAfter: last.inputPosition ?? 'start', revision: String(last.revision), items: this.state.shared.size });
  }

  /** Stops the input and the cycle; appends what is pending unless the run failed. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      if (this.timer !== undefined) clearInterval(this.timer);
      await this.sub?.stop();
      await this.exclusive(async () => {
        if (!this.failed) await this.flush();
      }).catch((err: unknown) => this.log.warn('item engine: final append failed (the next run redoes it)', { err: String(err) }));
      await this.snapshots?.settled();
    })();
    return this.stopping;
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

  /**
   * Rebuilds the state of the output up to `last`: the newest usable
   * snapshot, then the events after it (restore.ts). Jobs are read once each
   * to know whether they had stopped by the resume point; running jobs are
   * registered so their items keep expiring without waiting for a report.
   */
  private async rebuild(last: LastOutput): Promise<void> {
    this.output = new FencedOutput(this.opts.client, this.log, last, this.stream);
    this.inputPosition = last.inputPosition;
    this.appendedPosition = last.inputPosition;
    if (this.opts.snapshots !== undefined) this.snapshots = new Snapshotter(this.opts.snapshots, this.opts.clock, this.log);
    if (last.revision === NO_STREAM) return;
    const restored = await restoreState(
      {
        client: this.opts.client,
        stream: this.stream,
        logger: this.log,
        snapshotDir: this.opts.snapshots?.dir,
        contextOf: async (jobId) => (await this.jobs.get(jobId)).ctx,
        useOtherJobDataOf: async (jobId) => (await this.jobs.get(jobId)).info.job.job?.useOtherJobData ?? true,
      },
      { revision: last.revision, inputPosition: last.inputPosition },
    );
    this.state = restored.state;
    const resumeAt = last.inputPosition === undefined ? 0n : BigInt(last.inputPosition);
    const stoppedBefore = (stoppedAt: bigint | undefined): boolean => stoppedAt !== undefined && stoppedAt <= resumeAt;
    for (const jobId of restored.jobIds) {
      const { info, ctx } = await this.jobs.get(jobId);
      if (stoppedBefore(info.stoppedAt)) endJob(this.state, jobId);
      else if (ctx !== undefined) runtimeOf(this.state, ctx);
    }
    // Open passages of THRESHOLD jobs still running at the resume point go on where they were.
    const thresholdContexts = new Map<string, ThresholdJobContext>();
    for (const { jobId } of restored.passages) {
      const { info, threshold } = await this.jobs.get(jobId);
      if (threshold !== undefined && !stoppedBefore(info.stoppedAt)) thresholdContexts.set(jobId, threshold);
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

  private async handle(events: ReadonlyArray<InputEvent>, position: Position): Promise<void> {
    // A failed run must not apply a batch twice (the subscription retries failed batches).
    if (this.failed || this.stopping) throw new Error('item engine run is stopping');
    try {
      // Input covered by the events before the current one (an item reset claims only that for the changes before it).
      let covered = this.inputPosition;
      for (const e of events) {
        // Another partition's facility: that partition records the reset in its own output.
        if (e.type === 'ItemsResetRequested') {
          if (this.owns(e.data.facility)) await this.resetItems(e, covered);
        }
        else if (e.type === 'TagsReported') await this.ingestReport(e);
        else this.jobChanged(e);
        covered = e.position?.commit.toString() ?? covered;
      }
      this.inputPosition = position.commit.toString();
      if (this.pending.changeCount >= this.opts.maxChanges) await this.flush();
      // Input that decided nothing is done as it is handled.
      if (this.pending.isEmpty) this.appendedPosition = this.inputPosition;
    } catch (err) {
      this.fail(err);
      throw err;
    }
  }

  private async ingestReport(e: TagsReportedInput): Promise<void> {
    const { info, ctx, threshold } = await this.jobs.get(e.data.jobId);
    // Reports of an unknown job, of a DO_NOTHING or LLRP recipe, or arriving after the job stopped, place nothing.
    if (ctx === undefined && threshold === undefined) return;
    // A job runs in one facility: its reports belong to that facility's partition.
    if (!this.owns(info.job.job?.facility ?? ctx?.facility ?? '')) return;
    const at = e.position?.commit;
    if (info.stoppedAt !== undefined && (at === undefined || info.stoppedAt < at)) return;
    // The report's append time is the engine's time for it, so a replay reproduces it.
    const reportMs = e.created.getTime();
    if (ctx !== undefined) this.pending.add(ingest(this.state, e.data, ctx, reportMs).changes, reportMs);
    else if (threshold !== undefined) this.thresholds.ingest(e.data, threshold, reportMs, this.pending.threshold);
  }

  /** Whether this partition handles a facility's reports and item resets. */
  private owns(facility: string): boolean {
    return partitionOf(facility, this.opts.partition.count) === this.opts.partition.index;
  }

  private jobChanged(e: JobInput): void {
    const jobId = e.streamId.slice(JOB_STREAM_PREFIX.length);
    this.jobs.forget(jobId); // refreshed on the job's next report
    if (e.type === 'JobStopped') {
      endJob(this.state, jobId);
      // Passages still open when the job stops are decided on the reads it had.
      this.thresholds.endJob(jobId, e.created.getTime(), this.pending.threshold);
    }
  }

  /** Every cycle: tick when caught up and due, then append what is pending. */
  private async cycle(): Promise<void> {
    if (this.failed || this.stopping) return;
    const now = this.opts.clock();
    if (this.caughtUp && now - this.lastTick >= this.opts.tickMs) {
      this.lastTick = now;
      this.pending.add(tick(this.state, now).changes);
      this.thresholds.sweep(now, this.pending.threshold);
    }
    await this.flush();
  }

  /**
   * Appends the pending changes, fenced by the revision this run last wrote.
   * One ItemsChanged holds at most a bounded number of changes so an append
   * stays under the event store's size limit (1 MiB by default). When a
   * batch needs several events, all but the last claim only the input
   * covered before the batch: a crash between them makes the next run ingest
   * the batch again on top of the state the written part already produced,
   * which repeats none of its history (the items are already where the
   * written changes put them).
   */
  private async flush(): Promise<void> {
    if (this.pending.isEmpty || this.failed) return;
    if (this.inputPosition === undefined) throw new Error('item changes without any input position');
    const { changes, threshold, oldestReportMs } = this.pending.take();
    const parts = outputParts(changes, threshold);
    for (const [k, part] of parts.entries()) {
      const last = k === parts.length - 1;
      await this.append({
        inputPosition: last ? this.inputPosition : (this.fenced.flushedInputPosition ?? '0'),
        at: this.opts.clock(),
        changes: part.changes,
        ...(part.transitions.length > 0 ? { transitions: part.transitions } : {}),
        ...(part.iterations.length > 0 ? { iterations: part.iterations } : {}),
        // The open passages as of the input the event claims: only the last part claims the newest input.
        ...(last ? this.passagesField() : {}),
      });
    }
    this.appendedPosition = this.inputPosition;
    if (oldestReportMs !== undefined) metrics.reportToItemSeconds.observe(Math.max(0, Date.now() - oldestReportMs) / 1000);
    this.snapshots?.appended(changes.length);
    this.maybeSnapshot();
  }

  private get fenced(): FencedOutput {
    if (this.output === undefined) throw new Error('item engine run has not started');
    return this.output;
  }

  /** Appends one ItemsChanged; a failure (fenced or not) ends the run. */
  private async append(data: ItemsChangedData): Promise<void> {
    try {
      await this.fenced.append(data);
    } catch (err) {
      this.fail(err);
      throw err;
    }
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

  /**
   * An item reset (docs/support.md): the changes pending before it are
   * appended first, claiming only the input before the request; then the
   * facility's items leave the state and an ItemsChanged with no changes and
   * the `reset` record claims the request's position. Every consumer (and
   * the engine's own restore) meets the reset at the same place in the log.
   */
  private async resetItems(e: ItemsResetRequest, covered: string | undefined): Promise<void> {
    const at = e.position?.commit;
    if (at === undefined) throw new Error(`ItemsResetRequested ${e.id} has no $all position`);
    if (this.pending.changeCount > 0) {
      this.inputPosition = covered;
      await this.flush();
    }
    const dropped = resetFacility(this.state, e.data.facility);
    this.inputPosition = at.toString();
    await this.append({
      inputPosition: this.inputPosition,
      at: this.opts.clock(),
      changes: [],
      reset: { facility: e.data.facility, clearHistory: e.data.clearHistory, requestId: e.id },
      ...this.passagesField(),
    });
    this.log.info('item engine: items of a facility reset', { facility: e.data.facility, clearHistory: e.data.clearHistory, dropped, requestId: e.id });
  }

  /** Right after an append (snapshotter.ts): a snapshot when one is due. */
  private maybeSnapshot(): void {
    if (this.snapshots === undefined || this.failed) return;
    const { revision, lastEventId } = this.fenced;
    if (revision === NO_STREAM || lastEventId === undefined || this.inputPosition === undefined) return;
    this.snapshots.maybeTake({ state: this.state, revision, eventId: lastEventId, inputPosition: this.inputPosition, passages: () => this.thresholds.openPassages() });
  }
}
