// What the engine knows of each job, folded from the log at the input
// position it has reached: the job's own events (its stream, read up to that
// position when the job is first needed, then each job event of the input)
// and the contexts its reports are processed with, built from the folded
// configuration (./configuration.ts). Nothing here reads a read model: the
// same input gives the same jobs and contexts on every run and on a replay.
import type { EventStoreDBClient } from '@eventstore/db-client';
import { forEachInStream } from '../core/eventstore';
import type { RecordedDomainEvent } from '../core/events';
import { evolveJob, initialJobState, jobEvents, jobStream, type JobState } from '../jobs';
import type { EngineConfiguration } from './configuration';
import type { ThresholdJobContext } from './threshold/context';
import type { JobContext } from './types';

/** A job as the engine needs it: its folded state and where in `$all` it stopped (if it did by then). */
export interface JobInfo {
  readonly job: JobState;
  readonly stoppedAt: bigint | undefined;
}

export interface KnownJob {
  readonly info: JobInfo;
  readonly ctx: JobContext | undefined;
  /** Set for THRESHOLD jobs (then ctx is undefined). */
  readonly threshold: ThresholdJobContext | undefined;
}

type JobEvent = RecordedDomainEvent<Parameters<typeof evolveJob>[1]>;

const fold = (info: JobInfo, e: JobEvent): JobInfo => ({
  job: evolveJob(info.job, e),
  stoppedAt: e.type === 'JobStopped' ? (e.position?.commit ?? 0n) : info.stoppedAt,
});

/** The job's events at or before `upTo` (a `$all` commit position), folded. */
export async function loadJobAsOf(client: EventStoreDBClient, jobId: string, upTo: bigint): Promise<JobInfo> {
  let info: JobInfo = { job: initialJobState, stoppedAt: undefined };
  await forEachInStream(client, jobStream(jobId), jobEvents, (e) => {
    if (e.position === undefined || e.position.commit <= upTo) info = fold(info, e);
  });
  return info;
}

export class JobsBook {
  private readonly jobs = new Map<string, JobInfo>();
  private readonly contexts = new Map<string, KnownJob>();
  private contextsOf = -1;

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly config: EngineConfiguration,
  ) {}

  /** The job as of input position `at`: read from its stream up to there when it is not known yet. */
  async get(jobId: string, at: bigint): Promise<KnownJob> {
    if (!this.jobs.has(jobId)) this.jobs.set(jobId, await loadJobAsOf(this.client, jobId, at));
    return this.known(jobId);
  }

  /** A job already known (get was called for it); its context as of the configuration folded so far. */
  known(jobId: string): KnownJob {
    if (this.contextsOf !== this.config.version) {
      this.contexts.clear();
      this.contextsOf = this.config.version;
    }
    const cached = this.contexts.get(jobId);
    if (cached !== undefined) return cached;
    const info = this.jobs.get(jobId);
    if (info === undefined) throw new Error(`job ${jobId} is not known to the engine yet`);
    const ctx = info.job.status === 'NONE' ? undefined : this.config.jobContext(info.job);
    const threshold = info.job.status === 'NONE' || ctx !== undefined ? undefined : this.config.thresholdContext(info.job);
    const entry = { info, ctx, threshold };
    this.contexts.set(jobId, entry);
    return entry;
  }

  /** A job event of the input: folded into a known job; an unknown one is read up to its position when first needed. */
  jobEvent(jobId: string, e: JobEvent): void {
    const info = this.jobs.get(jobId);
    if (info === undefined) return;
    this.jobs.set(jobId, fold(info, e));
    this.contexts.delete(jobId);
  }
}
