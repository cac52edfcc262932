// The door plan (plan.ts, thresholdDoorPlan) of a reader's assignment, read
// from the stored configuration: the job's recipe, its thresholds and their
// antenna configurations. Any connector running a THRESHOLD job asks it.
import type * as E from 'fp-ts/Either';
import type { Assignment } from '../agents';
import type { ConfigReadModel } from '../core/resource/readmodel';
import { recipeOf } from '../recipes';
import { listAntennaConfigurations, listThresholds } from '../thresholds';
import { thresholdDoorPlan, type DoorPlan } from './plan';

/** undefined when the assignment's recipe is not (or no longer) a THRESHOLD recipe. */
export async function doorPlanOf(readModel: ConfigReadModel, reader: string, assignment: Assignment): Promise<E.Either<string, DoorPlan> | undefined> {
  const recipe = await recipeOf(readModel, String(assignment.recipe['name']));
  if (recipe?.type !== 'THRESHOLD') return undefined;
  const [thresholds, antennaConfigurations] = await Promise.all([listThresholds(readModel), listAntennaConfigurations(readModel)]);
  return thresholdDoorPlan({ reader, recipe, facility: assignment.facility, thresholds, antennaConfigurations });
}
