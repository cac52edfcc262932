// The jobs slice's background work: the job runner in the `jobs` role (the
// jobs read model runs with every read model, src/app/wiring.ts).
import type { Role } from '../config';
import type { AppDeps } from '../slice';
import { readersFor } from './context';
import { readerConflicts } from './readers';
import { systemClock, type Clock } from '../core/clock';
import { startJobRunner, type ResolveReaders } from './runner';
import type { JobSettings } from './settings';

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
  if (!roles.includes('jobs')) return undefined;
  return startJobRunner({
    client: deps.client,
    logger: deps.logger.child('job-runner'),
    settings: opts.settings ?? deps.config.jobs,
    clock: opts.clock ?? systemClock,
    resolveReaders: readModelResolver(deps),
  });
}
