// What the engine knows of each job: its folded state, where in `$all` it
// stopped, and the context its reports are processed with (an item job's
// recipe, readers and zone map, or a THRESHOLD job's). Loaded on the job's
// first report and reused for a while: rebuilding a context per report would
// read the configuration read model at report rate.
import type { EventStoreDBClient } from '@eventstore/db-client';
import { forEachInStream } from '../core/eventstore';
import { evolveJob, initialJobState, jobEvents, jobStream, type JobState } from '../jobs';
import type { ConfigReadModel } from '../core/resource/readmodel';
import { readerDefinitionsOf } from '../readerdefinitions';
import { recipeOf } from '../recipes';
import { currentZoneMapOf, zoneLocator } from '../zonemaps';
import { engineReaders, engineRecipeOf } from './context';
import type { ThresholdJobContext } from './threshold/context';
import { thresholdContextOf } from './threshold/job-context';
import type { JobContext } from './types';

/** A job as the engine needs it: its folded state and where in `$all` it stopped. */
interface JobInfo {
  readonly job: JobState;
  readonly stoppedAt: bigint | undefined;
}

export interface CachedJob {
  readonly info: JobInfo;
  readonly ctx: JobContext | undefined;
  /** Set for THRESHOLD jobs (then ctx is undefined). */
  readonly threshold: ThresholdJobContext | undefined;
  readonly loadedAt: number;
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
async function jobContextOf(readModel: ConfigReadModel, job: JobState): Promise<JobContext | undefined> {
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

/** Jobs by id, each kept `ttlMs` after it was loaded. */
export class JobCache {
  private readonly jobs = new Map<string, CachedJob>();

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly readModel: ConfigReadModel,
    private readonly clock: () => number,
    private readonly ttlMs: number,
  ) {}

  async get(jobId: string): Promise<CachedJob> {
    const cached = this.jobs.get(jobId);
    const now = this.clock();
    if (cached !== undefined && now - cached.loadedAt < this.ttlMs) return cached;
    const info = await loadJob(this.client, jobId);
    const ctx = info.job.status === 'NONE' ? undefined : await jobContextOf(this.readModel, info.job);
    const threshold = info.job.status === 'NONE' || ctx !== undefined ? undefined : await thresholdContextOf(this.readModel, info.job);
    const entry = { info, ctx, threshold, loadedAt: now };
    this.jobs.set(jobId, entry);
    return entry;
  }

  /** Drops `jobId`: loaded again on its next use (after one of its events). */
  forget(jobId: string): void {
    this.jobs.delete(jobId);
  }
}
