// One run of the item engine for one partition (./partitions.ts; the only
// one by default): state rebuilt from its output stream (ENGINE_STREAM for
// partition 0), then the input feed after the last inputPosition, of which it
// handles its facilities' reports and item resets, every job event, every
// configuration event (./configuration.ts) and the clock's ticks
// (./clock.ts). Everything it decides comes from that input: the jobs'
// contexts are folded from it and its time is the input's append time, so a
// run over the same log decides the same (docs/item-processing.md, "What the
// engine reads"). What a batch of input decides is appended as soon as the
// batch is handled; batches handled while an append is in flight join the
// next one, so appends grow with the load instead of waiting on a timer. A
// cycle timer only ticks the clock when the log is quiet. Any failure ends
// the run (its state may be ahead of what was appended); the worker then
// starts a new one, which rebuilds from the output: the output is the only
// truth.
import { NO_STREAM, type EventStoreDBClient, type Position } from '@eventstore/db-client';
import { metrics } from '../core/metrics';
import type { Logger } from '../core/logger';
import { malformedSkipped, type RunningSubscription } from '../core/subscriptions';
import { JOB_STREAM_PREFIX, jobEvents } from '../jobs';
import { tickClock } from './clock';
import { configEntryOf, EngineConfiguration, type ConfigEntry } from './configuration';
import { scanConfiguration } from './configuration-scan';
import { ingest, tick } from './engine';
import { inputRange, positionOf, subscribeToInput, type InputEvent, type ItemsResetRequest } from './input';
import { JobsBook, loadJobAsOf } from './jobs-book';
import { FencedOutput, outputParts, readLastOutput, type EngineOutput, type ItemsChangedData, type LastOutput } from './output';
import { engineStream, partitionOf } from './partitions';
import { PendingOutput } from './pending';
import { resetFacility } from './reset';
import { ComparingOutput, RecordedDecisions } from './recorded';
import { jobLookups, restoreState, type Restored } from './restore';
import { Snapshotter, type SnapshotPolicy, type SnapshotSubject } from './snapshotter';
import { emptyState, endJob, runtimeOf } from './state';
import type { ThresholdJobContext } from './threshold/context';
import type { OpenPassages } from './threshold/passages';
import { ThresholdTracker } from './threshold/tracker';
import type { EngineReport } from './report';
import type { EngineState } from './types';

export interface EngineRunOptions {
  readonly client: EventStoreDBClient;
  readonly logger: Logger;
  /** Wall clock: when to append, snapshot and tick the log's clock; never the time the engine decides with. */
  readonly clock: () => number;
  readonly cycleMs: number;
  readonly maxChanges: number;
  /** Item expiry and LOCATION computations run each time the engine's time passes a multiple of this. */
  readonly tickMs: number;
  /** How long the log may stay quiet (while a job runs) before the run appends a clock tick. */
  readonly clockTickMs: number;
  /** Snapshots of this partition (its own directory). */
  readonly snapshots: SnapshotPolicy | undefined;
  /** The partition this run writes for, of how many. */
  readonly partition: { readonly index: number; readonly count: number };
  /** Where the output goes; default the partition's stream, fenced. A replay passes a scratch output. */
  readonly output?: (last: LastOutput) => EngineOutput;
  /**
   * One configuration for every job at every position instead of the one
   * folded from the log: a replay's "what if every job had always run with
   * today's configuration" (replay.ts). Never set for a live run.
   */
  readonly fixedConfiguration?: EngineConfiguration;
}

/** How long a stop waits for its final append and snapshot. */
const FINAL_WORK_BOUND_MS = 10_000;

type TagsReportedInput = Extract<InputEvent, { type: 'TagsReported'; data: EngineReport }>;
type JobInput = Extract<InputEvent, { type: keyof typeof jobEvents }>;
const JOB_EVENT_TYPES: ReadonlySet<string> = new Set(Object.keys(jobEvents));

export class EngineRun {
  private state: EngineState = emptyState();
  private output: EngineOutput | undefined;
  /** Input position covered by what is appended plus what is pending. */
  private inputPosition: string | undefined;
  /** Input position whose item changes are all appended: read models can have them. */
  private appendedPosition: string | undefined;
  private pending = new PendingOutput();
  private thresholds = new ThresholdTracker();
  /** The last append carried open passages: the next one carries them again, if only to say none is left. */
  private carriedPassages = false;
  private config = new EngineConfiguration();
  private jobs: JobsBook;
  /** Configuration entries folded since the last append; the next append carries them. */
  private pendingConfig: ConfigEntry[] = [];
  /** The next append carries the whole configuration (a fresh stream, or one written before configuration was carried). */
  private configComplete = false;
  /** The engine's time: the latest append time of the input handled (epoch ms); undefined before any. */
  private time: number | undefined;
  /** The engine's time as of the input the last append claimed (what a part claiming only that input records). */
  private claimedTime: number | undefined;
  private snapshots: Snapshotter | undefined;
  /** The run is deciding the input since its snapshot again (rebuild): nothing it decides is new. */
  private decidingAgain = false;
  private sub: RunningSubscription | undefined;
  private timer: NodeJS.Timeout | undefined;
  private caughtUp = false;
  /** Wall-clock time of the last input handled and of the last clock tick tried. */
  private lastInputWall: number;
  private lastTickWall = -Infinity;
  private ticking = false;
  private failed = false;
  /** What ended the run: a handler or flush after a failure throws it again (a replay stops on its own error). */
  private failure: unknown;
  /** An append of pending output in flight (at most one: each is fenced by the revision the previous wrote). */
  private inFlight: Promise<void> | undefined;
  /** A batch is being handled: pending output is not at a batch boundary, so no append may take it now. */
  private midBatch = false;
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
    if (opts.fixedConfiguration !== undefined) this.config = opts.fixedConfiguration;
    this.jobs = new JobsBook(opts.client, this.config);
    this.lastInputWall = opts.clock();
  }

  /**
   * The input whose changes are appended: where its lag is measured from.
   * Input handled into pending changes is not done yet: until they are
   * appended no read model can show them, so a caller that waits for a
   * lag of 0 sees what that input did.
   */
  get handledPosition(): Position | undefined {
    return this.appendedPosition === undefined ? undefined : positionOf(this.appendedPosition);
  }

  async start(): Promise<void> {
    const last = await this.restore();
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

  /** Rebuilds the state from the output (start, and a replay from a chosen point); returns where the output ends. */
  async restore(last?: LastOutput): Promise<LastOutput> {
    const end = last ?? (await readLastOutput(this.opts.client, this.stream));
    await this.rebuild(end);
    return end;
  }

  /** Stops the input and the cycle; appends what is pending unless the run failed. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      if (this.timer !== undefined) clearInterval(this.timer);
      await this.sub?.stop();
      const finalWork = this.exclusive(async () => {
        // Even after a failure: the next run reads where the output ends, which an append in flight may still move.
        while (this.inFlight !== undefined) await this.inFlight;
        if (this.failed) return;
        await this.flush();
        // Input handled since the last append that decided nothing: claimed now, so the snapshot can stand there.
        if (this.snapshots !== undefined && this.inputPosition !== undefined && this.sink.flushedInputPosition !== this.inputPosition) {
          await this.append({ inputPosition: this.inputPosition, at: this.time ?? 0, changes: [], ...this.passagesField(), ...this.configurationField() });
        }
        const subject = this.snapshotSubject();
        if (subject !== undefined) await this.snapshots?.takeNow(subject);
      }).catch((err: unknown) => this.log.warn('item engine: final append or snapshot failed (the next run redoes it)', { err: String(err) }));
      // Bounded: an append the store never answers must not hold up the rest of a shutdown (the store's own
      // close, which frees its directory). Nothing is lost: the next run reads again the input not claimed.
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        finalWork.then(() => true),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), FINAL_WORK_BOUND_MS);
        }),
      ]);
      clearTimeout(timer);
      if (!finished) {
        this.failed = true;
        this.log.warn('item engine: final append or snapshot unanswered; stopping without it (the next run reads that input again)', { boundMs: FINAL_WORK_BOUND_MS });
        return;
      }
      await this.snapshots?.settled();
    })();
    return this.stopping;
  }

  /** Runs `work` alone: the handler, the cycle and the stop never interleave. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private fail(err: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.failure = err;
    this.onFailure(this, err);
  }

  private throwIfFailed(): void {
    if (this.failed) throw this.failure instanceof Error ? this.failure : new Error('item engine run failed');
  }

  /**
   * Rebuilds the state of the output up to `last`: the newest usable
   * snapshot, then the input after it decided again up to the input `last`
   * claims (decideAgain), which gives back everything the engine keeps, not
   * only what its changes say; without a snapshot, or when deciding again
   * does not give the recorded decisions, the events after it are applied
   * instead (restore.ts).
   */
  private async rebuild(last: LastOutput): Promise<void> {
    if (last.revision === NO_STREAM) {
      this.adoptEnd(last);
      this.snapshots = this.newSnapshotter();
      this.configComplete = true;
      return;
    }
    const deps = {
      client: this.opts.client,
      stream: this.stream,
      logger: this.log,
      snapshotDir: this.opts.snapshots?.dir,
      ...jobLookups((jobId, upTo) => loadJobAsOf(this.opts.client, jobId, upTo)),
    };
    const end = { revision: last.revision, inputPosition: last.inputPosition };
    const restored = await restoreState(deps, end, this.opts.snapshots === undefined ? 'apply' : 'decide');
    if (restored.decideFrom === undefined || !(await this.decideAgain(restored, restored.decideFrom, last))) {
      if (restored.decideFrom !== undefined) this.clear();
      await this.adopt(restored.decideFrom === undefined ? restored : await restoreState(deps, end, 'apply'), last);
    }
    this.snapshots = this.newSnapshotter();
  }

  private newSnapshotter(): Snapshotter | undefined {
    return this.opts.snapshots === undefined ? undefined : new Snapshotter(this.opts.snapshots, this.opts.clock, this.log);
  }

  /** Everything a rebuild sets, as a new run has it (a rebuild that falls back starts over). */
  private clear(): void {
    this.state = emptyState();
    this.pending = new PendingOutput();
    this.thresholds = new ThresholdTracker();
    this.carriedPassages = false;
    this.config = this.opts.fixedConfiguration ?? new EngineConfiguration();
    this.jobs = new JobsBook(this.opts.client, this.config);
    this.pendingConfig = [];
    this.configComplete = false;
  }

  /** The run stands at output event `at`: where it appends next, the input it resumes after and its time. */
  private adoptEnd(at: LastOutput, output?: EngineOutput): void {
    this.output = output ?? this.opts.output?.(at) ?? new FencedOutput(this.opts.client, this.log, at, this.stream);
    this.inputPosition = at.inputPosition;
    this.appendedPosition = at.inputPosition;
    this.time = at.at;
    this.claimedTime = at.at;
  }

  /**
   * Takes a restored state standing at output event `at`, with the
   * configuration it carries. Jobs are read as of that point to know whether
   * they had stopped by then; running jobs are registered so their items
   * keep expiring without waiting for a report.
   */
  private async adopt(restored: Restored, at: LastOutput, output?: EngineOutput): Promise<void> {
    this.adoptEnd(at, output);
    if (at.at !== undefined) this.thresholds.resumeAt(at.at);
    const resumeAt = at.inputPosition === undefined ? 0n : BigInt(at.inputPosition);
    this.state = restored.state;
    if (restored.configuration === undefined) {
      // An output written before the engine carried its configuration: fold it from the log once, and carry it from now on.
      this.config = await scanConfiguration(this.opts.client, resumeAt);
      this.configComplete = true;
      this.log.info('item engine: configuration folded from the log (the output did not carry it yet)', { entries: this.config.entries().length });
    } else this.config = restored.configuration;
    if (this.opts.fixedConfiguration !== undefined) this.config = this.opts.fixedConfiguration;
    this.jobs = new JobsBook(this.opts.client, this.config);
    for (const jobId of restored.jobIds) {
      const { info, ctx } = await this.jobs.get(jobId, resumeAt);
      if (info.stoppedAt !== undefined) endJob(this.state, jobId);
      else if (ctx !== undefined) runtimeOf(this.state, ctx);
    }
    // Open passages of THRESHOLD jobs still running at the resume point go on where they were.
    const thresholdContexts = new Map<string, ThresholdJobContext>();
    for (const { jobId } of restored.passages) {
      const { info, threshold } = await this.jobs.get(jobId, resumeAt);
      if (threshold !== undefined && info.stoppedAt === undefined) thresholdContexts.set(jobId, threshold);
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

  /**
   * From a snapshot older than the end of the output: the input after it is
   * decided again, up to the input `last` claims, into an output that only
   * compares each decision with the recorded one. Then the run stands where
   * the output ends with exactly the state the run that wrote it had there
   * (reads that changed nothing, open compute windows and all), whether
   * that run stopped or crashed. False when a decision differs (the engine
   * would not be a function of its input: logged as an error).
   */
  private async decideAgain(restored: Restored, from: NonNullable<Restored['decideFrom']>, last: LastOutput): Promise<boolean> {
    const started = Date.now();
    // The snapshot's event is an output end like any other: the comparison and the state start there.
    const compared = new ComparingOutput(new RecordedDecisions(this.opts.client, this.stream, from.revision + 1n), from);
    await this.adopt(restored, from, compared);
    let inputEvents = 0;
    this.decidingAgain = true;
    try {
      const until = last.inputPosition === undefined ? undefined : BigInt(last.inputPosition);
      if (until !== undefined) {
        for await (const { batch, end } of inputRange(this.opts.client, positionOf(from.inputPosition), until, malformedSkipped(this.log))) {
          inputEvents += batch.length;
          await this.handle(batch, end);
          if (compared.difference !== undefined) break;
        }
      }
      if (compared.difference === undefined) await this.flush();
    } finally {
      this.decidingAgain = false;
    }
    const difference = await compared.finish();
    if (difference !== undefined) {
      this.log.error('item engine: the input since the snapshot decided again differs from the recorded output; applying the recorded changes instead', {
        snapshotRevision: String(from.revision),
        index: difference.index,
        recorded: JSON.stringify(difference.recorded),
        decided: JSON.stringify(difference.replayed),
      });
      return false;
    }
    this.output = this.opts.output?.(last) ?? new FencedOutput(this.opts.client, this.log, last, this.stream);
    this.inputPosition = last.inputPosition;
    this.appendedPosition = last.inputPosition;
    this.claimedTime = last.at;
    this.log.info('item engine: input since the snapshot decided again', { snapshotRevision: String(from.revision), inputEvents, decisions: compared.decisions, ms: Date.now() - started });
    return true;
  }

  /** Handles one batch of input (the subscription's, or a replay's). */
  async handle(events: ReadonlyArray<InputEvent>, position: Position): Promise<void> {
    // A failed run must not apply a batch twice (the subscription retries failed batches).
    this.throwIfFailed();
    if (this.stopping) throw new Error('item engine run is stopping');
    try {
      this.midBatch = true;
      try {
        // Input covered by the events before the current one (an item reset claims only that for the changes before it).
        let covered = this.inputPosition;
        for (const e of events) {
          await this.step(e, covered);
          covered = e.position?.commit.toString() ?? covered;
        }
        this.inputPosition = position.commit.toString();
        this.lastInputWall = this.opts.clock();
      } finally {
        this.midBatch = false;
      }
      // Input that decided nothing is done as it is handled (unless an append before it is still in flight).
      if (this.nothingPending && this.inFlight === undefined) this.markAppended();
      // Bounded memory: while appends fall behind, the input waits for them.
      while (this.inFlight !== undefined && this.pending.changeCount >= this.opts.maxChanges) await this.inFlight;
      this.throwIfFailed();
      this.push();
    } catch (err) {
      this.fail(err);
      throw err;
    }
  }

  /** Input that decided nothing is done: its lag is measured from here (its time is not claimed: no append records it). */
  private markAppended(): void {
    this.appendedPosition = this.inputPosition;
  }

  /**
   * Starts appending what is pending, at a batch boundary, unless an append
   * is in flight: when that one is written, what was decided meanwhile goes
   * in the next. A failed append has ended the run already (append()).
   */
  private push(): void {
    if (this.inFlight !== undefined || this.midBatch || this.failed || this.nothingPending || this.inputPosition === undefined) return;
    const appended = this.appendPending().catch((err: unknown) => this.fail(err));
    this.inFlight = appended;
    void appended.then(() => {
      this.inFlight = undefined;
      this.push();
    });
  }

  /**
   * No item change or threshold record waits for an append. Configuration
   * folded since the last append does not count: it rides on the next append
   * that happens anyway (an append claims input only with the configuration
   * folded up to there, so a restart before it reads those configuration
   * events again), and configuration alone never makes the engine append.
   */
  private get nothingPending(): boolean {
    return this.pending.isEmpty;
  }

  /**
   * One input event. A report is applied at its own append time, before the
   * engine's time moves past it (a late report keeps its tags from expiring);
   * an item reset appends, so time moves first and the append records where
   * it stands. Then, when the time passed a tick or a sweep boundary, the
   * work due by then.
   */
  private async step(e: InputEvent, covered: string | undefined): Promise<void> {
    const at = e.created.getTime();
    if (e.type === 'TagsReported') {
      await this.ingestReport(e as TagsReportedInput);
      this.advance(at);
    } else if (e.type === 'ItemsResetRequested') {
      this.advance(at);
      const reset = e as ItemsResetRequest;
      // Another partition's facility: that partition records the reset in its own output.
      if (this.owns(reset.data.facility)) await this.resetItems(reset, covered);
    } else if (JOB_EVENT_TYPES.has(e.type)) {
      this.jobChanged(e as JobInput, at);
      this.advance(at);
    } else if (e.type === 'EngineClockTicked') {
      this.advance(at);
    } else {
      const entry = configEntryOf(e.type, e.data);
      if (entry !== undefined) this.configure(entry);
      this.advance(at);
    }
  }

  /** Moves the engine's time to `at` (never back) and runs what is due on the way. */
  private advance(at: number): void {
    const before = this.time;
    this.time = before === undefined ? at : Math.max(before, at);
    const now = this.time;
    if (before !== undefined && Math.floor(now / this.opts.tickMs) > Math.floor(before / this.opts.tickMs)) this.pending.add(tick(this.state, now).changes);
    if (this.thresholds.sweepDue(now)) this.thresholds.sweep(now, this.pending.threshold);
  }

  private async ingestReport(e: TagsReportedInput): Promise<void> {
    const at = e.position?.commit;
    if (at === undefined) throw new Error(`TagsReported ${e.id} has no $all position`);
    const { info, ctx, threshold } = await this.jobs.get(e.data.jobId, at);
    // Reports of an unknown job, of a DO_NOTHING or LLRP recipe, or arriving after the job stopped, place nothing.
    if (ctx === undefined && threshold === undefined) return;
    // A job runs in one facility: its reports belong to that facility's partition.
    if (!this.owns(info.job.job?.facility ?? ctx?.facility ?? '')) return;
    if (info.stoppedAt !== undefined) return;
    // The report's append time is the engine's time for it, so a replay reproduces it.
    const reportMs = e.created.getTime();
    if (ctx !== undefined) this.pending.add(ingest(this.state, e.data, ctx, reportMs).changes, reportMs);
    else if (threshold !== undefined) this.thresholds.ingest(e.data, threshold, reportMs, this.pending.threshold);
  }

  /** Whether this partition handles a facility's reports and item resets. */
  private owns(facility: string): boolean {
    return partitionOf(facility, this.opts.partition.count) === this.opts.partition.index;
  }

  private jobChanged(e: JobInput, at: number): void {
    const jobId = e.streamId.slice(JOB_STREAM_PREFIX.length);
    this.jobs.jobEvent(jobId, e);
    if (e.type === 'JobStopped') {
      endJob(this.state, jobId);
      // Passages still open when the job stops are decided on the reads it had.
      this.thresholds.endJob(jobId, at, this.pending.threshold);
    }
  }

  /**
   * A configuration event: folded, carried by the next append, and given at
   * once to the running jobs (not at their next report), so a run resumed
   * after this point runs them with the same context as this one.
   */
  private configure(entry: ConfigEntry): void {
    if (this.opts.fixedConfiguration !== undefined) return;
    this.config.apply(entry);
    this.pendingConfig.push(entry);
    for (const jobId of this.state.jobs.keys()) {
      const ctx = this.jobs.known(jobId).ctx;
      if (ctx !== undefined) runtimeOf(this.state, ctx);
    }
    this.thresholds.refreshContexts((jobId) => this.jobs.known(jobId).threshold);
  }

  /** Every cycle: tick the log's clock when it stays quiet while something waits on time. */
  private async cycle(): Promise<void> {
    if (this.failed || this.stopping) return;
    // Pending output is appended as batches are handled; this only restarts appending if anything was left waiting.
    this.push();
    const now = this.opts.clock();
    const waitsOnTime = this.state.jobs.size > 0 || this.thresholds.active;
    if (!this.caughtUp || this.ticking || !waitsOnTime) return;
    if (now - this.lastInputWall < this.opts.clockTickMs || now - this.lastTickWall < this.opts.clockTickMs) return;
    this.lastTickWall = now;
    this.ticking = true;
    // Outside the exclusive section: the tick comes back as input like any other event.
    void tickClock(this.opts.client, now, this.opts.clockTickMs)
      .catch((err: unknown) => this.log.warn('item engine: clock tick not appended (the next cycle tries again)', { err: String(err) }))
      .finally(() => {
        this.ticking = false;
      });
  }

  /**
   * Appends the pending changes, fenced by the revision this run last wrote.
   * One ItemsChanged holds at most a bounded number of changes so an append
   * stays under the event store's size limit (1 MiB by default). When a
   * batch needs several events, all but the last claim only the input
   * covered before the batch: a crash between them makes the next run ingest
   * the batch again on top of the state the written part already produced,
   * which repeats none of its history (the items are already where the
   * written changes put them). Configuration entries go in an event of their
   * own at the end, so a large zone map never pushes a full event over the
   * limit.
   *
   * Everything the append claims (pending output, input position, time,
   * open passages, configuration) is taken before the first await: batches
   * handled while it is written go in the next append.
   */
  private async appendPending(): Promise<void> {
    if (this.nothingPending || this.failed || this.inputPosition === undefined) return;
    const { changes, threshold, oldestReportMs } = this.pending.take();
    const inputPosition = this.inputPosition;
    const time = this.time;
    const parts = outputParts(changes, threshold);
    // The open passages and the configuration as of the input the event claims: only the last part claims the newest input.
    const claims = { ...this.passagesField(), ...this.configurationField() };
    const withRecords = parts.some((p) => p.changes.length + p.transitions.length + p.iterations.length > 0);
    if (claims.configuration !== undefined && withRecords) parts.push({ changes: [], transitions: [], iterations: [] });
    for (const [k, part] of parts.entries()) {
      const last = k === parts.length - 1;
      await this.append({
        inputPosition: last ? inputPosition : (this.sink.flushedInputPosition ?? '0'),
        at: (last ? time : this.claimedTime) ?? 0,
        changes: part.changes,
        ...(part.transitions.length > 0 ? { transitions: part.transitions } : {}),
        ...(part.iterations.length > 0 ? { iterations: part.iterations } : {}),
        ...(last ? claims : {}),
      });
    }
    this.appendedPosition = inputPosition;
    // Input handled meanwhile that decided nothing is done too.
    if (this.nothingPending && !this.midBatch) this.markAppended();
    if (oldestReportMs !== undefined && !this.decidingAgain) metrics.reportToItemSeconds.observe(Math.max(0, Date.now() - oldestReportMs) / 1000);
    this.snapshots?.appended(changes.length);
    this.maybeSnapshot();
  }

  /**
   * Appends everything pending once the append in flight (if any) is
   * written; throws what ended the run if it failed. Called at a batch
   * boundary (stop, a replay's end) or by an item reset, which needs the
   * output to stand right before it.
   */
  async flush(): Promise<void> {
    while (this.inFlight !== undefined) await this.inFlight;
    this.throwIfFailed();
    await this.appendPending();
    this.throwIfFailed();
  }

  /** The configuration the next append carries (and forgets), or undefined when it carries none. */
  private configurationField(): Pick<ItemsChangedData, 'configuration' | 'configurationComplete'> | undefined {
    if (this.configComplete) {
      this.configComplete = false;
      this.pendingConfig = [];
      return { configuration: this.config.entries(), configurationComplete: true };
    }
    if (this.pendingConfig.length === 0) return undefined;
    const configuration = this.pendingConfig;
    this.pendingConfig = [];
    return { configuration };
  }

  private get sink(): EngineOutput {
    if (this.output === undefined) throw new Error('item engine run has not started');
    return this.output;
  }

  /** Appends one ItemsChanged; a failure (fenced or not) ends the run. */
  private async append(data: ItemsChangedData): Promise<void> {
    try {
      await this.sink.append(data);
      this.claimedTime = data.at;
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
    if (!this.nothingPending) {
      this.inputPosition = covered;
      await this.flush();
    }
    const dropped = resetFacility(this.state, e.data.facility);
    this.inputPosition = at.toString();
    await this.append({
      inputPosition: this.inputPosition,
      at: this.time ?? e.created.getTime(),
      changes: [],
      reset: { facility: e.data.facility, clearHistory: e.data.clearHistory, requestId: e.id },
      ...this.passagesField(),
      ...this.configurationField(),
    });
    this.log.info('item engine: items of a facility reset', { facility: e.data.facility, clearHistory: e.data.clearHistory, dropped, requestId: e.id });
  }

  /** Right after an append (snapshotter.ts): a snapshot when one is due. */
  private maybeSnapshot(): void {
    // Mid-batch the state holds part of a batch the output does not claim yet.
    if (this.failed || this.midBatch) return;
    const subject = this.snapshotSubject();
    if (subject !== undefined) this.snapshots?.maybeTake(subject);
  }

  /**
   * The state as of the last append, when nothing is pending since (a
   * snapshot names the event it stands at); undefined otherwise, or before
   * this run appended anything (the snapshot it started from still holds).
   */
  private snapshotSubject(): SnapshotSubject | undefined {
    const { revision, lastEventId } = this.sink;
    if (revision === NO_STREAM || lastEventId === undefined || this.inputPosition === undefined || !this.nothingPending) return undefined;
    // The configuration it holds must be the one as of its position: none folded and not yet carried.
    if (this.sink.flushedInputPosition !== this.inputPosition || this.pendingConfig.length > 0 || this.configComplete) return undefined;
    return {
      state: this.state,
      revision,
      eventId: lastEventId,
      inputPosition: this.inputPosition,
      passages: () => this.thresholds.openPassages(),
      configuration: this.config.entries(),
    };
  }
}
