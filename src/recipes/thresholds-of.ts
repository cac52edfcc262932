// Which thresholds a THRESHOLD recipe watches: a rule of the recipe
// (thresholdIds), used by the job runner (which readers a job takes) and the
// engine (what a job classifies).
import type { Threshold } from '../thresholds';
import type { ThresholdRecipe } from './model';

/** The thresholds a THRESHOLD recipe runs in `facility`: its thresholdIds, or all of the facility when empty. */
export function thresholdsOfRecipe(recipe: ThresholdRecipe, facility: string, thresholds: readonly Threshold[]): Threshold[] {
  const inFacility = thresholds.filter((t) => t.facility === facility);
  if (recipe.thresholdIds.length === 0) return inFacility;
  return inFacility.filter((t) => recipe.thresholdIds.includes(t.id));
}
