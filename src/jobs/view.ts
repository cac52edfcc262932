// The job status object of the interface, and the job list query (pure).
import * as t from 'io-ts';
import { JobStatus, MAX_ERRORS, type JobError, type JobState, type StopReason, type StoredJobRequest } from './model';

export interface JobStatusObject {
  id: string;
  status: JobStatus;
  readerNames: string[];
  failedReaderNames: string[];
  creationTime: string;
  lastActivityTime: string;
  /** Seconds spent RUNNING (until now, or until stopped). */
  activeDuration: number;
  errorOccurred: boolean;
  errors: JobError[];
  maxErrors: number;
  stopReason: StopReason | null;
  facilities: Array<{ name: string }>;
  job: StoredJobRequest | null;
  instanceMetadata: null;
  lastHeartbeatTime: string | null;
  startAttempts: number;
}

export function toStatusObject(s: JobState, now: Date, lastHeartbeatTime: string | null = null): JobStatusObject {
  const end = s.stoppedAt === null ? now.getTime() : Date.parse(s.stoppedAt);
  const activeDuration = s.runningSince === null ? 0 : Math.max(0, Math.floor((end - Date.parse(s.runningSince)) / 1000));
  return {
    id: s.id,
    status: s.status === 'NONE' ? 'WAITING' : s.status,
    readerNames: [...s.readerNames],
    failedReaderNames: [...s.failedReaderNames],
    creationTime: s.creationTime,
    lastActivityTime: s.lastActivityTime,
    activeDuration,
    errorOccurred: s.errorCount > 0,
    errors: s.errors.map((e) => ({ ...e })),
    maxErrors: MAX_ERRORS,
    stopReason: s.stopReason,
    facilities: s.job === null ? [] : [{ name: s.job.facility }],
    job: s.job === null ? null : { ...s.job },
    instanceMetadata: null,
    lastHeartbeatTime,
    startAttempts: s.startAttempts,
  };
}

const Timestamp = new t.Type<number, string, unknown>(
  'ISO 8601 timestamp',
  (u): u is number => typeof u === 'number',
  (u, c) => {
    const n = typeof u === 'string' ? Date.parse(u) : NaN;
    return Number.isNaN(n) ? t.failure(u, c, 'must be an ISO 8601 timestamp') : t.success(n);
  },
  (n) => new Date(n).toISOString(),
);
const PositiveIntString = new t.Type<number, string, unknown>(
  'positive integer',
  (u): u is number => typeof u === 'number',
  (u, c) => {
    const n = typeof u === 'string' && /^\d+$/.test(u) ? Number(u) : NaN;
    return Number.isSafeInteger(n) && n >= 1 ? t.success(n) : t.failure(u, c, 'must be an integer of at least 1');
  },
  String,
);
/** `status` may be given several times (koa: string or string[]); comma-separated also accepted. */
const StatusList = new t.Type<JobStatus[], string[], unknown>(
  'status list',
  (u): u is JobStatus[] => Array.isArray(u),
  (u, c) => {
    const raw = (Array.isArray(u) ? u : [u]).flatMap((v) => (typeof v === 'string' ? v.split(',') : [v]));
    const out: JobStatus[] = [];
    for (const v of raw) {
      if (!JobStatus.is(v)) return t.failure(u, c, `must be one of ${Object.keys(JobStatus.keys).join(', ')}`);
      out.push(v);
    }
    return t.success(out);
  },
  (a) => a,
);

export const JobListQuery = t.partial(
  {
    startedBefore: Timestamp,
    startedAfter: Timestamp,
    lastActivityBefore: Timestamp,
    lastActivityAfter: Timestamp,
    sortBy: t.keyof({ name: null, creationTime: null, lastActivityTime: null }),
    sortOrder: t.keyof({ asc: null, desc: null }),
    status: StatusList,
    latest: PositiveIntString,
  },
  'JobListQuery',
);
export type JobListQuery = t.TypeOf<typeof JobListQuery>;

export const JOB_LIST_PARAMS = [
  { name: 'startedBefore', description: 'ISO 8601; jobs created before' },
  { name: 'startedAfter', description: 'ISO 8601; jobs created after' },
  { name: 'lastActivityBefore', description: 'ISO 8601; last activity before' },
  { name: 'lastActivityAfter', description: 'ISO 8601; last activity after' },
  { name: 'sortBy', description: 'name | creationTime | lastActivityTime (default)' },
  { name: 'sortOrder', description: 'asc | desc (default)' },
  { name: 'status', description: 'job status; may be given several times' },
  { name: 'latest', description: 'only the first N jobs after sorting; default 1' },
] as const;

/** Filters, sorts (ties by id, for a stable order) and keeps the `latest` N (default 1). */
export function queryJobs(jobs: readonly JobState[], q: JobListQuery): JobState[] {
  const created = (s: JobState): number => Date.parse(s.creationTime);
  const active = (s: JobState): number => Date.parse(s.lastActivityTime);
  const filtered = jobs.filter(
    (s) =>
      s.status !== 'NONE' &&
      (q.startedBefore === undefined || created(s) < q.startedBefore) &&
      (q.startedAfter === undefined || created(s) > q.startedAfter) &&
      (q.lastActivityBefore === undefined || active(s) < q.lastActivityBefore) &&
      (q.lastActivityAfter === undefined || active(s) > q.lastActivityAfter) &&
      (q.status === undefined || q.status.length === 0 || (q.status as string[]).includes(s.status)),
  );
  const sortBy = q.sortBy ?? 'lastActivityTime';
  const dir = (q.sortOrder ?? 'desc') === 'asc' ? 1 : -1;
  const key = (s: JobState): string | number =>
    sortBy === 'name' ? (s.job?.name ?? '') : sortBy === 'creationTime' ? created(s) : active(s);
  const sorted = [...filtered].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    const c = ka < kb ? -1 : ka > kb ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    return c * dir;
  });
  return sorted.slice(0, q.latest ?? 1);
}
