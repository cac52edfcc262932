// The ThresholdJobContext of a job from the stored configuration (the worker
// caches it as it caches an item job's context).
import type { ConfigReadModel } from '../../core/resource/readmodel';
import type { JobState } from '../../jobs';
import { recipeOf } from '../../recipes';
import { listAntennaConfigurations, listThresholds } from '../../thresholds';
import { thresholdJobContext, type ThresholdJobContext } from './context';

/** The context of a THRESHOLD job, or undefined for any other job. */
export async function thresholdContextOf(readModel: ConfigReadModel, job: JobState): Promise<ThresholdJobContext | undefined> {
  const req = job.job;
  if (req === null) return undefined;
  const recipe = await recipeOf(readModel, req.recipeName);
  if (recipe?.type !== 'THRESHOLD') return undefined;
  const [thresholds, antennaConfigurations] = await Promise.all([listThresholds(readModel), listAntennaConfigurations(readModel)]);
  return thresholdJobContext({
    jobId: job.id,
    facility: req.facility,
    recipe,
    thresholds,
    antennaConfigurations,
    reportToDatabaseEnabled: req.reportToDatabaseEnabled,
    reportToMessageQueueEnabled: req.reportToMessageQueueEnabled,
  });
}
