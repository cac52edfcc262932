// The jobs slice's background work: the jobs projection in the `projections`
// role and the job runner in the `jobs` role.
import type { Role } from '../config';
import type { AppDeps } from '../core/slice';
import { jobsReadModel } from '../../projections/jobs/projection';
import { startResettableProjection } from '../../projections/resettable';
import { readersFor } from './context';
import { readerConflicts } from './readers';
import { startJobRunner, systemClock, type Clock, type ResolveReaders } from './runner';
import { loadJobSettings, type JobSettings } from './settings';

export interface JobsWork {
  stop(): Promise<void>;
}

/** Production reader resolution: configuration from the read model, minus readers other active jobs hold. */
export function readModelResolver(deps: AppDeps): ResolveReaders {
  return async (job, others) => {
    if (job.job === null) return { readerNames: [], notes: [] };
    const readers = await readersFor(deps, job.job);
    if (readers === undefined) return { readerNames: [], notes: [`recipe ${JSON.stringify(job.job.recipeName)} no longer exists`] };
    const taken = readerConflicts(readers, others, job.id);
    return {
      readerNames: readers.filter((r) => !taken.some((c) => c.readerName === r)),
      notes: taken.map((c) => `reader ${c.readerName} is in another active job: JobId=${c.jobId}`),
    };
  };
}

export function startJobsWork(
  deps: AppDeps,
  roles: readonly Role[],
  opts: { settings?: JobSettings; clock?: Clock } = {},
): JobsWork | undefined {
  const stops: Array<() => Promise<void>> = [];
  if (roles.includes('projections')) {
    // Like every read model: dropped and rebuilt when the log was replaced.
    const projection = startResettableProjection({ deps, model: jobsReadModel, logger: deps.logger.child('jobs') });
    stops.push(() => projection.stop());
  }
  if (roles.includes('jobs')) {
    const runner = startJobRunner({
      client: deps.client,
      logger: deps.logger.child('job-runner'),
      settings: opts.settings ?? loadJobSettings(process.env),
      clock: opts.clock ?? systemClock,
      resolveReaders: readModelResolver(deps),
    });
    stops.unshift(() => runner.stop());
  }
  if (stops.length === 0) return undefined;
  return {
    async stop() {
      for (const stop of stops) await stop();
    },
  };
}
