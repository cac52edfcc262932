// The job: its start request as stored, its states and stop reasons, and the
// aggregate state every reader of `job-<uuid>` folds (decider, runner, read
// model). Times are ISO 8601 strings so the state is plain JSON.
import * as t from 'io-ts';
import { nullable } from '../readerdefinitions';

export const JobStatus = t.keyof({
  WAITING: null,
  INITIALIZING: null,
  STARTING: null,
  RUNNING: null,
  RESTARTING_RDE: null,
  STOPPING: null,
  STOPPED: null,
});
export type JobStatus = t.TypeOf<typeof JobStatus>;

export const StopReason = t.keyof({ JOB_COMPLETED: null, JOB_FAILED: null, USER_REQUESTED_GRACEFUL: null, USER_REQUESTED_ABRUPT: null });
export type StopReason = t.TypeOf<typeof StopReason>;

/** Errors kept on a job (the most recent ones); reported as `maxErrors`. */
export const MAX_ERRORS = 100;
export const DEFAULT_START_DELAY = 'PT3M';

/** The start request as stored: defaults applied, facility resolved. */
export const StoredJobRequest = t.type(
  {
    name: nullable(t.string),
    recipeName: t.string,
    facility: t.string,
    durationSeconds: nullable(t.number),
    startDelay: t.string,
    readerGroups: nullable(t.array(t.string)),
    reportToDatabaseEnabled: t.boolean,
    reportToHistoryEnabled: t.boolean,
    reportToMessageQueueEnabled: t.boolean,
    useOtherJobData: t.boolean,
    reportToFileEnabled: t.boolean,
  },
  'StoredJobRequest',
);
export type StoredJobRequest = t.TypeOf<typeof StoredJobRequest>;

export const JobError = t.type({ time: t.string, message: t.string }, 'JobError');
export type JobError = t.TypeOf<typeof JobError>;

/** `NONE`: the stream does not exist yet. */
export const JobState = t.type(
  {
    id: t.string,
    status: t.union([JobStatus, t.literal('NONE')]),
    job: nullable(StoredJobRequest),
    /** Prospective readers while WAITING, resolved ones from INITIALIZING on. */
    readerNames: t.array(t.string),
    failedReaderNames: t.array(t.string),
    acknowledged: t.array(t.string),
    creationTime: t.string,
    lastActivityTime: t.string,
    startAttempts: t.number,
    runningSince: nullable(t.string),
    stoppedAt: nullable(t.string),
    stopReason: nullable(StopReason),
    errors: t.array(JobError),
    errorCount: t.number,
    ackDeadline: nullable(t.string),
    stopDeadline: nullable(t.string),
  },
  'JobState',
);
export type JobState = t.TypeOf<typeof JobState>;

export const initialJobState: JobState = {
  id: '',
  status: 'NONE',
  job: null,
  readerNames: [],
  failedReaderNames: [],
  acknowledged: [],
  creationTime: '',
  lastActivityTime: '',
  startAttempts: 0,
  runningSince: null,
  stoppedAt: null,
  stopReason: null,
  errors: [],
  errorCount: 0,
  ackDeadline: null,
  stopDeadline: null,
};

/** Not STOPPED (and existing): holds its readers and its recipe. */
export const isActive = (s: Pick<JobState, 'status'>): boolean => s.status !== 'STOPPED' && s.status !== 'NONE';

/** The readers a job holds: its readers minus those that failed to acknowledge. */
export const heldReaders = (s: JobState): string[] =>
  isActive(s) ? s.readerNames.filter((r) => !s.failedReaderNames.includes(r)) : [];
