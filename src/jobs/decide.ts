// The job's pure decisions. Time is passed in; timers are plain commands
// (`Tick`, `Initialize`) the runner sends when `nextDue` says so, so every
// transition is decided here and tested given/when/then.
import * as E from 'fp-ts/Either';
import { parseIsoDuration } from '../core/duration';
import { conflict, notFound, type ApiError } from '../core/http/errors';
import type { JobEvent } from './events';
import type { JobState, StoredJobRequest } from './model';

export interface ReaderConflict {
  readonly readerName: string;
  readonly jobId: string;
}

export type JobCommand =
  | {
      readonly type: 'Start';
      readonly id: string;
      readonly request: StoredJobRequest;
      readonly readerNames: readonly string[];
      /** Readers of this request already held by active jobs (from the read model). */
      readonly conflicts: readonly ReaderConflict[];
    }
  /** Time passed: start delay, all acknowledged / ack time-out, duration, graceful stop time-out. */
  | { readonly type: 'Tick' }
  /** Readers resolved by the runner in INITIALIZING; `notes` become job errors (e.g. readers taken meanwhile). */
  | { readonly type: 'Initialize'; readonly readerNames: readonly string[]; readonly notes: readonly string[]; readonly ackTimeoutMs: number }
  | { readonly type: 'Acknowledge'; readonly readerName: string }
  /**
   * A reader tagtrail drives itself (LLRP, IoT) cannot run its part of the
   * job: the reason becomes a job error and the reader a failed reader, as a
   * reader that never acknowledged.
   */
  | { readonly type: 'FailReader'; readonly readerName: string; readonly message: string }
  | { readonly type: 'Stop'; readonly graceful: boolean; readonly stopTimeoutMs: number };

type Decision = E.Either<ApiError, ReadonlyArray<JobEvent>>;

const iso = (ms: number): string => new Date(ms).toISOString();
const ms = (s: string): number => Date.parse(s);

/** Milliseconds of an ISO duration the request holds (validated on start; 0 if ever unreadable). */
export const startDelayMs = (req: StoredJobRequest): number => {
  const d = parseIsoDuration(req.startDelay);
  return E.isRight(d) ? d.right : 0;
};

export type DueAction = 'Tick' | 'Initialize';

/** When the runner must act on this job next, and how; undefined: only events move it. */
export function nextDue(s: JobState): { at: number; action: DueAction } | undefined {
  switch (s.status) {
    case 'NONE':
    case 'STOPPED':
    case 'RESTARTING_RDE':
      return undefined;
    case 'WAITING':
      return s.job === null ? undefined : { at: ms(s.creationTime) + startDelayMs(s.job), action: 'Tick' };
    case 'INITIALIZING':
      return { at: ms(s.lastActivityTime), action: 'Initialize' };
    case 'STARTING': {
      // A failed reader has settled too: the others need not wait for the deadline.
      const allAcked = s.acknowledged.length > 0 && s.readerNames.every((r) => s.acknowledged.includes(r) || s.failedReaderNames.includes(r));
      return { at: allAcked ? ms(s.lastActivityTime) : ms(s.ackDeadline ?? s.lastActivityTime), action: 'Tick' };
    }
    case 'RUNNING': {
      const secs = s.job?.durationSeconds ?? 0;
      if (secs <= 0 || s.runningSince === null) return undefined;
      return { at: ms(s.runningSince) + secs * 1000, action: 'Tick' };
    }
    case 'STOPPING':
      return { at: ms(s.stopDeadline ?? s.lastActivityTime), action: 'Tick' };
    default: {
      const never: never = s.status;
      return never;
    }
  }
}

function failed(time: string, message: string): JobEvent[] {
  return [
    { type: 'JobErrorRecorded', data: { time, message } },
    { type: 'JobStopped', data: { time, stopReason: 'JOB_FAILED' } },
  ];
}

function tick(s: JobState, now: Date): Decision {
  const due = nextDue(s);
  if (due === undefined || due.action !== 'Tick' || now.getTime() < due.at) return E.right([]);
  const time = now.toISOString();
  switch (s.status) {
    case 'WAITING':
      return E.right([{ type: 'JobInitializing', data: { time } }]);
    case 'STARTING': {
      const missing = s.readerNames.filter((r) => !s.acknowledged.includes(r) && !s.failedReaderNames.includes(r));
      if (missing.length === 0) return E.right([{ type: 'JobRunning', data: { time } }]);
      const failures: JobEvent[] = missing.map((readerName) => ({ type: 'JobReaderFailed', data: { time, readerName } }));
      if (s.acknowledged.length === 0) {
        return E.right([...failures, ...failed(time, 'no reader acknowledged the job within the acknowledgement time-out')]);
      }
      return E.right([
        ...failures,
        { type: 'JobErrorRecorded', data: { time, message: `readers did not acknowledge in time: ${missing.join(', ')}` } },
        { type: 'JobRunning', data: { time } },
      ]);
    }
    case 'RUNNING':
      return E.right([{ type: 'JobStopped', data: { time, stopReason: 'JOB_COMPLETED' } }]);
    case 'STOPPING':
      return E.right([{ type: 'JobStopped', data: { time, stopReason: 'USER_REQUESTED_GRACEFUL' } }]);
    default:
      return E.right([]);
  }
}

type CommandOf<T extends JobCommand['type']> = Extract<JobCommand, { type: T }>;

function decideStart(cmd: CommandOf<'Start'>, s: JobState, time: string): Decision {
  if (s.status !== 'NONE') return E.left(conflict(`job ${cmd.id} already exists`));
  const [first] = cmd.conflicts;
  if (first !== undefined) {
    const readers = cmd.conflicts.map((c) => `${c.readerName} (JobId=${c.jobId})`).join(', ');
    return E.left(conflict(`readers are already in an active job: ${readers}; JobId=${first.jobId}`));
  }
  return E.right([{ type: 'JobStarted', data: { id: cmd.id, time, request: cmd.request, readerNames: [...cmd.readerNames] } }]);
}

function decideInitialize(cmd: CommandOf<'Initialize'>, s: JobState, now: Date, time: string): Decision {
  if (s.status !== 'INITIALIZING') return E.right([]);
  const notes: JobEvent[] = cmd.notes.map((message) => ({ type: 'JobErrorRecorded', data: { time, message } }));
  if (cmd.readerNames.length === 0) return E.right([...notes, ...failed(time, 'no readers resolved for the job')]);
  return E.right([
    ...notes,
    { type: 'JobInitialized', data: { time, readerNames: [...cmd.readerNames], ackDeadline: iso(now.getTime() + cmd.ackTimeoutMs) } },
  ]);
}

function decideAcknowledge(cmd: CommandOf<'Acknowledge'>, s: JobState, time: string): Decision {
  if (s.status === 'NONE') return E.left(notFound('job not found'));
  if (!s.readerNames.includes(cmd.readerName)) return E.left(notFound(`reader ${cmd.readerName} is not in job ${s.id}`));
  if (s.failedReaderNames.includes(cmd.readerName)) {
    return E.left(conflict(`reader ${cmd.readerName} did not acknowledge job ${s.id} in time`));
  }
  if (s.status !== 'STARTING' && s.status !== 'RUNNING') return E.left(conflict(`job ${s.id} is ${s.status}`));
  if (s.acknowledged.includes(cmd.readerName)) return E.right([]);
  return E.right([{ type: 'JobReaderAcknowledged', data: { time, readerName: cmd.readerName } }]);
}

function decideFailReader(cmd: CommandOf<'FailReader'>, s: JobState, time: string): Decision {
  if (s.status !== 'STARTING' && s.status !== 'RUNNING') return E.right([]);
  if (!s.readerNames.includes(cmd.readerName) || s.failedReaderNames.includes(cmd.readerName)) return E.right([]);
  const events: JobEvent[] = [
    { type: 'JobErrorRecorded', data: { time, message: `reader ${cmd.readerName}: ${cmd.message}` } },
    { type: 'JobReaderFailed', data: { time, readerName: cmd.readerName } },
  ];
  const left = s.readerNames.filter((r) => r !== cmd.readerName && !s.failedReaderNames.includes(r));
  if (left.length === 0) events.push(...failed(time, 'no reader of the job could run it'));
  return E.right(events);
}

function decideStop(cmd: CommandOf<'Stop'>, s: JobState, now: Date, time: string): Decision {
  const stop = (graceful: boolean): JobEvent => ({
    type: 'JobStopped',
    data: { time, stopReason: graceful ? 'USER_REQUESTED_GRACEFUL' : 'USER_REQUESTED_ABRUPT' },
  });
  switch (s.status) {
    case 'NONE':
      return E.left(notFound('job not found'));
    case 'STOPPED':
      return E.right([]); // stopping a stopped job is a no-op
    case 'WAITING':
    case 'INITIALIZING':
      return E.right([stop(cmd.graceful)]); // no reader has been told anything yet
    case 'STOPPING':
      return E.right(cmd.graceful ? [] : [stop(false)]);
    case 'STARTING':
    case 'RUNNING':
    case 'RESTARTING_RDE':
      // Graceful: readers learn at their next check-in (assignment gone), bounded by the stop time-out.
      return E.right(
        cmd.graceful
          ? [{ type: 'JobStopRequested', data: { time, graceful: true, deadline: iso(now.getTime() + cmd.stopTimeoutMs) } }]
          : [{ type: 'JobStopRequested', data: { time, graceful: false, deadline: time } }, stop(false)],
      );
    default: {
      const never: never = s.status;
      return never;
    }
  }
}

export function decideJob(cmd: JobCommand, s: JobState, now: Date): Decision {
  const time = now.toISOString();
  switch (cmd.type) {
    case 'Start':
      return decideStart(cmd, s, time);
    case 'Tick':
      return tick(s, now);
    case 'Initialize':
      return decideInitialize(cmd, s, now, time);
    case 'Acknowledge':
      return decideAcknowledge(cmd, s, time);
    case 'FailReader':
      return decideFailReader(cmd, s, time);
    case 'Stop':
      return decideStop(cmd, s, now, time);
    default: {
      const never: never = cmd;
      return never;
    }
  }
}
