// What the jobs slice reads: the jobs read model, the read-your-writes waiter
// on the jobs projection, and the configuration a job uses.
import type { AppDeps } from '../slice';
import { checkpointWaiter, type ProjectionWaiter } from '../core/resource/consistency';
import { RedisCheckpointStore } from '../core/subscriptions';
import { JobsReadModel, JOBS_PROJECTION } from './readmodel';
import { recipeKind, type Recipe } from '../recipes';
import { readerConfigurationsOf } from '../readerconfigurations';
import { readerDefinitionsOf } from '../readerdefinitions';
import { resolveReaders } from './readers';
import { listThresholds } from '../thresholds';
import type { StoredJobRequest } from './model';

/** Bound of the read-your-writes wait after a job command. */
export const JOBS_READ_YOUR_WRITES_MS = 5000;

export const jobsReadModel = (deps: Pick<AppDeps, 'redis' | 'keys'>): JobsReadModel => new JobsReadModel(deps.redis, deps.keys);

/** Polls the projection's checkpoint, so it works whichever process runs the projection. */
export const jobsWaiter = (deps: Pick<AppDeps, 'redis' | 'keys' | 'logger'>): ProjectionWaiter =>
  checkpointWaiter(new RedisCheckpointStore(deps.redis, deps.keys.checkpointPrefix), JOBS_PROJECTION, JOBS_READ_YOUR_WRITES_MS, deps.logger);

export async function recipeOf(deps: Pick<AppDeps, 'readModel'>, name: string): Promise<Recipe | undefined> {
  return deps.readModel.get(recipeKind, name);
}

/** The readers the request would take now (sorted), or undefined when its recipe is gone. */
export async function readersFor(deps: Pick<AppDeps, 'readModel'>, req: StoredJobRequest): Promise<string[] | undefined> {
  const [recipe, readers, configurations, thresholds] = await Promise.all([
    recipeOf(deps, req.recipeName),
    readerDefinitionsOf(deps.readModel),
    readerConfigurationsOf(deps.readModel),
    listThresholds(deps.readModel),
  ]);
  if (recipe === undefined) return undefined;
  return resolveReaders(recipe, req.facility, req.readerGroups, readers, configurations, thresholds);
}
