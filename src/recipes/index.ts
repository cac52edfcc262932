// The recipe slice's public API (pure domain code).
export { DurationValue, durationMillis, RecipeBody } from './codec';
export { DEFAULTS, FIELDS_OF, OPERATION_OF } from './fields';
export { readerConfigurationFor, referencedReaderConfigurations } from './lookup';
export {
  InventoryRecipe,
  LlrpRecipe,
  LocationRecipe,
  Recipe,
  RecipeType,
  REPORTING_INTERVALS,
  ReportingInterval,
  ThresholdRecipe,
} from './model';
export { allowsTagExpiry, MIN_REPORTING_INTERVAL, type RecipeContext } from './references';
export { toResponse, type RecipeResponse } from './response';
export { reportingIntervalMs } from './timing';
export { validateRecipe } from './validate';
export { recipeKind, recipeOf } from './kind';
export { type RecipeDeletionGuard } from './slice';
export { deletionRefusal, recipeConflicts, recipesUseOfReaderConfigurations, recipesUsing, replaceConflicts, validateReaderConfigurationWrite } from './reader-configuration-use';
export { TransitionParameters } from './transition-parameters';
export { thresholdsOfRecipe } from './thresholds-of';
