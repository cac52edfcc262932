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
import { InMemoryCheckpointStore, runSubscription, type RunningSubscription } from '../core/subscriptions';
import { runCommand } from '../core/command';
import { onJob } from './commands';
import { nextDue, type JobCommand } from './decide';
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

export function startJobRunner(opts: JobRunnerOptions): JobRunner {
  const states = new Map<string, JobState>();
  const stopped = new Set<string>();
  const timers = new Map<string, unknown>();
  const inFlight = new Set<string>();
  let live = false;
  let closed = false;
  // A refused or failed transition is tried again after a fixed pause: the
  // next attempt starts from the state the subscription has folded by then.
  const retryPolicy: BackoffPolicy = { initialMs: opts.retryMs ?? 1000, maxMs: opts.retryMs ?? 1000, factor: 1 };
  const retryMs = (): number => backoffDelay(retryPolicy, 0);

  const schedule = (id: string, delayOverride?: number): void => {
    const old = timers.get(id);
    if (old !== undefined) opts.clock.clearTimer(old);
    timers.delete(id);
    if (closed) return;
    const s = states.get(id);
    const due = s === undefined ? undefined : nextDue(s);
    if (due === undefined) return;
    const delay = delayOverride ?? Math.max(0, due.at - opts.clock.now().getTime());
    timers.set(
      id,
      opts.clock.setTimer(() => {
        timers.delete(id);
        void fire(id);
      }, delay),
    );
  };

  const fire = async (id: string): Promise<void> => {
    if (closed) return;
    if (inFlight.has(id)) {
      schedule(id, 50); // the transition in flight may not have reached the subscription yet
      return;
    }
    const s = states.get(id);
    const due = s === undefined ? undefined : nextDue(s);
    if (s === undefined || due === undefined) return;
    inFlight.add(id);
    try {
      let command: JobCommand = { type: 'Tick' };
      if (due.action === 'Initialize') {
        const others = [...states.values()].filter((o) => o.id !== id);
        const resolved = await opts.resolveReaders(s, others);
        command = { type: 'Initialize', readerNames: resolved.readerNames, notes: resolved.notes, ackTimeoutMs: opts.settings.ackTimeoutMs };
      }
      const result = await runCommand(opts.client, onJob(id), command, { now: opts.clock.now(), metadata: { user: 'job-runner' } });
      if (E.isLeft(result)) {
        opts.logger.warn('job transition refused', { jobId: id, command: command.type, message: result.left.message });
        schedule(id, retryMs());
      } else if (result.right.events.length === 0) {
        // Not due yet by the clock (skew) or already done: look again from the new state.
        const d = nextDue(result.right.state);
        if (d !== undefined) schedule(id, Math.max(d.at - opts.clock.now().getTime(), 10));
      }
      // Appended events come back through the subscription, which reschedules.
    } catch (err) {
      opts.logger.error('job transition failed; retrying', { jobId: id, err: String(err) });
      schedule(id, retryMs());
    } finally {
      inFlight.delete(id);
    }
  };

  const sub: RunningSubscription = runSubscription({
    client: opts.client,
    name: 'job-runner',
    codecs: jobEvents,
    filter: streamNameFilter({ prefixes: [JOB_STREAM_PREFIX] }),
    checkpointStore: new InMemoryCheckpointStore(),
    logger: opts.logger,
    handler: async (events) => {
      const touched = new Set<string>();
      for (const e of events) {
        const id = e.streamId.slice(JOB_STREAM_PREFIX.length);
        if (stopped.has(id)) continue;
        const before = states.get(id) ?? initialJobState;
        const next = evolveJob(before, e as JobEvent);
        // Job transitions are the state changes operators look for; the
        // replay at start repeats old ones, so only live ones are logged.
        if (live && next.status !== before.status) logJobTransition(opts.logger, before, next);
        if (next.status === 'STOPPED') {
          states.delete(id);
          stopped.add(id);
        } else states.set(id, next);
        touched.add(id);
      }
      if (live) for (const id of touched) schedule(id);
    },
    onCaughtUp: () => {
      if (live) return;
      live = true;
      opts.logger.info('job runner caught up', { activeJobs: states.size });
      for (const id of states.keys()) schedule(id);
    },
  });

  return {
    caughtUp: sub.caughtUp,
    jobs: () => states,
    async stop() {
      closed = true;
      for (const h of timers.values()) opts.clock.clearTimer(h);
      timers.clear();
      await sub.stop();
    },
  };
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
