// Events of the job aggregate (`job-<uuid>`) and the pure evolve.
import * as t from 'io-ts';
import { defineEvents, type EventOf } from '../core/events';
import { JobState, MAX_ERRORS, StopReason, StoredJobRequest } from './model';

export const JOB_STREAM_PREFIX = 'job-';
export const jobStream = (id: string): string => `${JOB_STREAM_PREFIX}${id}`;

export const jobEvents = defineEvents({
  /** `readerNames`: the readers the job would take now (conflict check); re-resolved on initialization. */
  JobStarted: t.type({ id: t.string, time: t.string, request: StoredJobRequest, readerNames: t.array(t.string) }),
  JobInitializing: t.type({ time: t.string }),
  JobInitialized: t.type({ time: t.string, readerNames: t.array(t.string), ackDeadline: t.string }),
  JobReaderAcknowledged: t.type({ time: t.string, readerName: t.string }),
  JobReaderFailed: t.type({ time: t.string, readerName: t.string }),
  JobRunning: t.type({ time: t.string }),
  JobStopRequested: t.type({ time: t.string, graceful: t.boolean, deadline: t.string }),
  JobStopped: t.type({ time: t.string, stopReason: StopReason }),
  JobErrorRecorded: t.type({ time: t.string, message: t.string }),
});
export type JobEvent = EventOf<typeof jobEvents>;

export function evolveJob(s: JobState, e: JobEvent): JobState {
  const at = { ...s, lastActivityTime: e.data.time };
  switch (e.type) {
    case 'JobStarted':
      return {
        ...at,
        id: e.data.id,
        status: 'WAITING',
        job: e.data.request,
        readerNames: e.data.readerNames,
        creationTime: e.data.time,
      };
    case 'JobInitializing':
      return { ...at, status: 'INITIALIZING', startAttempts: s.startAttempts + 1 };
    case 'JobInitialized':
      return {
        ...at,
        status: 'STARTING',
        readerNames: e.data.readerNames,
        failedReaderNames: [],
        acknowledged: [],
        ackDeadline: e.data.ackDeadline,
      };
    case 'JobReaderAcknowledged':
      return s.acknowledged.includes(e.data.readerName) ? at : { ...at, acknowledged: [...s.acknowledged, e.data.readerName] };
    case 'JobReaderFailed':
      return s.failedReaderNames.includes(e.data.readerName)
        ? at
        : { ...at, failedReaderNames: [...s.failedReaderNames, e.data.readerName] };
    case 'JobRunning':
      return { ...at, status: 'RUNNING', runningSince: e.data.time };
    case 'JobStopRequested':
      return { ...at, status: 'STOPPING', stopDeadline: e.data.deadline };
    case 'JobStopped':
      return { ...at, status: 'STOPPED', stopReason: e.data.stopReason, stoppedAt: e.data.time };
    case 'JobErrorRecorded':
      return {
        ...at,
        errors: [...s.errors, { time: e.data.time, message: e.data.message }].slice(-MAX_ERRORS),
        errorCount: s.errorCount + 1,
      };
    default: {
      const never: never = e;
      return never;
    }
  }
}
