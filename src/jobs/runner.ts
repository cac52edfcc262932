// The job runner (role `jobs`): a process manager that moves jobs on time
// (start delay, acknowledgement time-out, duration, graceful stop time-out)
// and when all readers acknowledged. It keeps every job's state in memory,
// folded by a subscription to the `job-` streams that starts from the
// beginning of the log at every start: after a restart the states, and so
// the timers (pure `nextDue`), are exactly what they were. Each transition is
// a command through runCommand (optimistic concurrency), so two runners
// by mistake cannot apply one transition twice.
import { streamNameFilter, type EventStoreDBClient } from '@eventstore/db-client';
import * as E from 'fp-ts/Either';
import type { Clock } from '../core/clock';
import type { Logger } from '../core/logger';
import { backoffDelay, type BackoffPolicy } from '../core/retry';
import type { RecordedDomainEvent } from '../core/events';
import { InMemoryCheckpointStore, runSubscription, type RunningSubscription } from '../core/subscriptions';
import { runCommand } from '../core/command';
import { onJob } from './commands';
import { nextDue, type DueAction, type JobCommand } from './decide';
import { evolveJob, JOB_STREAM_PREFIX, jobEvents, type JobEvent } from './events';
import { initialJobState, type JobState } from './model';
import type { JobSettings } from './settings';

/** Readers of an INITIALIZING job, given the other active jobs; `notes` become job errors. */
export type ResolveReaders = (job: JobState, others: readonly JobState[]) => Promise<{ readerNames: string[]; notes: string[] }>;

export interface JobRunnerOptions {
  readonly client: EventStoreDBClient;
  readonly logger: Logger;
  readonly settings: JobSettings;
  readonly clock: Clock;
  readonly resolveReaders: ResolveReaders;
  /** Delay before retrying a failed transition. */
  readonly retryMs?: number;
}

export interface JobRunner {
  readonly caughtUp: Promise<void>;
  /** Active jobs as the runner sees them. */
  jobs(): ReadonlyMap<string, JobState>;
  stop(): Promise<void>;
}

/** One pending timer per job, on the runner's clock. */
class JobTimers {
  private readonly handles = new Map<string, unknown>();

  constructor(private readonly clock: Clock) {}

  set(id: string, delayMs: number, fire: () => void): void {
    this.clear(id);
    this.handles.set(
      id,
      this.clock.setTimer(() => {
        this.handles.delete(id);
        fire();
      }, delayMs),
    );
  }

  clear(id: string): void {
    const old = this.handles.get(id);
    if (old !== undefined) this.clock.clearTimer(old);
    this.handles.delete(id);
  }

  clearAll(): void {
    for (const h of this.handles.values()) this.clock.clearTimer(h);
    this.handles.clear();
  }
}

/** The active jobs, folded from the `job-` streams; stopped ones are forgotten (a stopped job never moves again). */
class ActiveJobs {
  readonly states = new Map<string, JobState>();
  private readonly stopped = new Set<string>();

  /** Applies `events`; answers the jobs they touched. `onTransition` is told every status change. */
  fold(events: ReadonlyArray<RecordedDomainEvent<JobEvent>>, onTransition: (before: JobState, next: JobState) => void): Set<string> {
    const touched = new Set<string>();
    for (const e of events) {
      const id = e.streamId.slice(JOB_STREAM_PREFIX.length);
      if (this.stopped.has(id)) continue;
      const before = this.states.get(id) ?? initialJobState;
      const next = evolveJob(before, e);
      if (next.status !== before.status) onTransition(before, next);
      if (next.status === 'STOPPED') {
        this.states.delete(id);
        this.stopped.add(id);
      } else this.states.set(id, next);
      touched.add(id);
    }
    return touched;
  }
}

/** The command that carries job `id` past its due time: Initialize resolves its readers against the other active jobs. */
async function transitionOf(opts: JobRunnerOptions, id: string, s: JobState, action: DueAction, jobs: ActiveJobs): Promise<JobCommand> {
  if (action !== 'Initialize') return { type: 'Tick' };
  const others = [...jobs.states.values()].filter((o) => o.id !== id);
  const resolved = await opts.resolveReaders(s, others);
  return { type: 'Initialize', readerNames: resolved.readerNames, notes: resolved.notes, ackTimeoutMs: opts.settings.ackTimeoutMs };
}

export function startJobRunner(opts: JobRunnerOptions): JobRunner {
  const runner = new Runner(opts);
  return { caughtUp: runner.caughtUp, jobs: () => runner.jobs.states, stop: () => runner.stop() };
}

/** The runner's moving parts: the folded jobs, their timers, the transitions in flight. */
class Runner {
  readonly jobs = new ActiveJobs();
  readonly caughtUp: Promise<void>;
  private readonly timers: JobTimers;
  private readonly inFlight = new Set<string>();
  private readonly sub: RunningSubscription;
  // A refused or failed transition is tried again after a fixed pause: the
  // next attempt starts from the state the subscription has folded by then.
  private readonly retry: BackoffPolicy;
  private live = false;
  private closed = false;

  constructor(private readonly opts: JobRunnerOptions) {
    this.timers = new JobTimers(opts.clock);
    this.retry = { initialMs: opts.retryMs ?? 1000, maxMs: opts.retryMs ?? 1000, factor: 1 };
    this.sub = runSubscription({
      client: opts.client,
      name: 'job-runner',
      codecs: jobEvents,
      filter: streamNameFilter({ prefixes: [JOB_STREAM_PREFIX] }),
      checkpointStore: new InMemoryCheckpointStore(),
      logger: opts.logger,
      handler: async (events) => {
        // Job transitions are the state changes operators look for; the
        // replay at start repeats old ones, so only live ones are logged.
        const touched = this.jobs.fold(events, (before, next) => {
          if (this.live) logJobTransition(opts.logger, before, next);
        });
        if (this.live) for (const id of touched) this.schedule(id);
      },
      onCaughtUp: () => {
        if (this.live) return;
        this.live = true;
        opts.logger.info('job runner caught up', { activeJobs: this.jobs.states.size });
        for (const id of this.jobs.states.keys()) this.schedule(id);
      },
    });
    this.caughtUp = this.sub.caughtUp;
  }

  async stop(): Promise<void> {
    this.closed = true;
    this.timers.clearAll();
    await this.sub.stop();
  }

  /** (Re)arms the job's timer for its next due transition, or `delayOverride` from now. */
  private schedule(id: string, delayOverride?: number): void {
    this.timers.clear(id);
    if (this.closed) return;
    const s = this.jobs.states.get(id);
    const due = s === undefined ? undefined : nextDue(s);
    if (due === undefined) return;
    this.timers.set(id, delayOverride ?? Math.max(0, due.at - this.opts.clock.now().getTime()), () => void this.fire(id));
  }

  private async fire(id: string): Promise<void> {
    if (this.closed) return;
    if (this.inFlight.has(id)) {
      this.schedule(id, 50); // the transition in flight may not have reached the subscription yet
      return;
    }
    const s = this.jobs.states.get(id);
    const due = s === undefined ? undefined : nextDue(s);
    if (s === undefined || due === undefined) return;
    this.inFlight.add(id);
    try {
      await this.transition(id, s, due.action);
    } catch (err) {
      this.opts.logger.error('job transition failed; retrying', { jobId: id, err: String(err) });
      this.schedule(id, backoffDelay(this.retry, 0));
    } finally {
      this.inFlight.delete(id);
    }
  }

  private async transition(id: string, s: JobState, action: DueAction): Promise<void> {
    const command = await transitionOf(this.opts, id, s, action, this.jobs);
    const result = await runCommand(this.opts.client, onJob(id), command, { now: this.opts.clock.now(), metadata: { user: 'job-runner' } });
    if (E.isLeft(result)) {
      this.opts.logger.warn('job transition refused', { jobId: id, command: command.type, message: result.left.message });
      this.schedule(id, backoffDelay(this.retry, 0));
    } else if (result.right.events.length === 0) {
      // Not due yet by the clock (skew) or already done: look again from the new state.
      const d = nextDue(result.right.state);
      if (d !== undefined) this.schedule(id, Math.max(d.at - this.opts.clock.now().getTime(), 10));
    }
    // Appended events come back through the subscription, which reschedules.
  }
}

function logJobTransition(logger: Logger, before: JobState, next: JobState): void {
  logger.info('job status changed', {
    jobId: next.id,
    from: before.status,
    to: next.status,
    recipe: next.job?.recipeName,
    facility: next.job?.facility,
    readers: next.readerNames.length,
    ...(next.failedReaderNames.length > 0 ? { failedReaderNames: next.failedReaderNames } : {}),
    ...(next.stopReason ? { stopReason: next.stopReason } : {}),
  });
}
