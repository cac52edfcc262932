// The jobs slice: REST routes, facility usage (active jobs) and the recipe
// deletion guard. The runner and the jobs projection are processes, started
// by process.ts in the `jobs` and `projections` roles.
import { conflict } from '../core/http/errors';
import type { ResourceDeps } from '../core/resource/routes';
import type { AppDeps, Slice } from '../slice';
import type { RecipeDeletionGuard } from '../recipes';
import type { UsageSource } from '../facilities';
import { jobsReadModel } from './context';
import { registerJobRoutes } from './routes';

// ResourceDeps are AppDeps at run time (wiring builds one object); the guard
// and usage hooks are typed with the narrower interface.
const asApp = (deps: ResourceDeps): AppDeps => deps as AppDeps;

export const activeJobsUsage: UsageSource = async (deps) => {
  const jobs = await jobsReadModel(asApp(deps)).active();
  return { activeJobs: jobs.flatMap((j) => (j.job === null ? [] : [{ id: j.id, facility: j.job.facility }])) };
};

/** A recipe used by an active job cannot be deleted (409 naming the job as JobId=<id>). */
export const recipeInUseByJobs: RecipeDeletionGuard = async (recipeName, _recipe, deps) => {
  const using = (await jobsReadModel(asApp(deps)).active()).filter((j) => j.job?.recipeName === recipeName);
  if (using.length === 0) return undefined;
  return conflict(`recipe ${JSON.stringify(recipeName)} is used by active jobs: ${using.map((j) => `JobId=${j.id}`).join(', ')}`);
};

export const jobsSlice: Slice = {
  name: 'jobs',
  facilityUsage: activeJobsUsage,
  register(table, deps) {
    registerJobRoutes(table, deps);
  },
};
