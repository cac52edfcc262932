// From a request body to the stored recipe, or a 400 whose errors[] names
// every bad field (`body.reportingInterval`, `body.readerConfigurations.r1`).
// All rules run on every request, so a client sees all problems at once.
//
// Decisions where the published interface is silent (more in fields.ts, timing.ts,
// references.ts):
// - computeWindow is an integer >= 1 (a window of 0 s keeps no read) and
//   >= reportingInterval.
// - thresholdIds are integers; duplicates are dropped (the Java client keeps
//   them in a set). Whether they exist is not checked here.
// - Durations are stored in canonical form (`PT60M` is stored as `PT1H`).
import { left, right, type Either } from 'fp-ts/Either';
import { formatIsoDuration } from '../core/duration';
import { decodeAndCheck } from '../core/http/decode';
import type { ApiError, FieldError } from '../core/http/errors';
import { assertNever } from '../core/codecs';
import { given, invalid } from '../core/given';
import { RecipeBody } from './codec';
import { DEFAULTS, typeFieldErrors, type GivenRecipe } from './fields';
import type { InventoryRecipe, LlrpRecipe, LocationRecipe, Recipe, RecipeType, ThresholdRecipe } from './model';
import {
  readerModeErrors,
  referenceErrors,
  tagExpiryErrors,
  type RecipeContext,
  type UsedConfiguration,
} from './references';
import { resolveTiming, timingErrors, type TimedType } from './timing';

export type { RecipeContext } from './references';

const WHAT = 'recipe';

interface Common {
  readonly name: string;
  readonly readerConfigurationName?: string;
  readonly readerConfigurations: Readonly<Record<string, string>>;
}

interface Built<R> {
  readonly errors: FieldError[];
  readonly recipe: R;
}

export function validateRecipe(input: unknown, ctx: RecipeContext): Either<ApiError, Recipe> {
  return decodeAndCheck(RecipeBody, input, 'body', (body) => checkRecipe(body, ctx), { what: WHAT });
}

function checkRecipe(body: RecipeBody, ctx: RecipeContext): Either<ApiError, Recipe> {
  const { name, type } = body;
  const b = given(body);
  const references = referenceErrors(type, b, ctx);
  const common: Common = {
    name,
    readerConfigurations: { ...b.readerConfigurations },
    ...(b.readerConfigurationName === undefined ? {} : { readerConfigurationName: b.readerConfigurationName }),
  };
  const built = build(type, b, common, references.used);
  const errors = [...typeFieldErrors(type, b), ...references.errors, ...built.errors];
  return errors.length > 0 ? left(invalid(WHAT, errors)) : right(built.recipe);
}

function build(type: RecipeType, b: GivenRecipe, common: Common, used: readonly UsedConfiguration[]): Built<Recipe> {
  switch (type) {
    case 'LOCATION':
    case 'INVENTORY':
      return timed(type, b, common, used);
    case 'THRESHOLD':
      return { errors: [], recipe: threshold(b, common) };
    case 'LLRP':
      return { errors: [], recipe: llrp(b, common) };
    default:
      return assertNever(type);
  }
}

function timed(
  type: TimedType,
  b: GivenRecipe,
  common: Common,
  used: readonly UsedConfiguration[],
): Built<LocationRecipe | InventoryRecipe> {
  const timing = resolveTiming(type, b);
  const errors = [
    ...timingErrors(type, b, timing),
    ...readerModeErrors(used, timing.reportingInterval),
    ...(timing.tagExpiryMs === undefined ? [] : tagExpiryErrors(used)),
  ];
  const shared = {
    ...common,
    tagHeartbeatDuration: formatIsoDuration(timing.tagHeartbeatMs),
    ...(timing.tagExpiryMs === undefined ? {} : { tagExpiryDuration: formatIsoDuration(timing.tagExpiryMs) }),
    computeWindow: timing.computeWindow,
    reportingInterval: timing.reportingInterval,
  };
  if (type === 'LOCATION') {
    const minimumMovementInMeters = b.minimumMovementInMeters ?? DEFAULTS.minimumMovementInMeters;
    return { errors, recipe: { ...shared, type, minimumMovementInMeters } };
  }
  const aggregation = b.locationAggregationModel;
  return { errors, recipe: { ...shared, type, ...(aggregation === undefined ? {} : { locationAggregationModel: aggregation }) } };
}

function threshold(b: GivenRecipe, common: Common): ThresholdRecipe {
  return {
    ...common,
    type: 'THRESHOLD',
    thresholdIds: [...new Set(b.thresholdIds ?? [])],
    iterationDataLogEnabled: b.iterationDataLogEnabled ?? DEFAULTS.iterationDataLogEnabled,
    ...(b.profile === undefined ? {} : { profile: b.profile }),
    ...(b.transitionParameters === undefined ? {} : { transitionParameters: b.transitionParameters }),
  };
}

function llrp(b: GivenRecipe, common: Common): LlrpRecipe {
  // Only LLRP's own fields reach here: typeFieldErrors refuses the others.
  const {
    presencePipelineEnabled,
    locationUpdateIntervalInSeconds,
    historyWindowSizeInCycles,
    computeWindowSizeInCycles,
    computeWindowTimeInSeconds,
    locationAggregationModel,
  } = b;
  return {
    ...common,
    ...given({
      presencePipelineEnabled,
      locationUpdateIntervalInSeconds,
      historyWindowSizeInCycles,
      computeWindowSizeInCycles,
      computeWindowTimeInSeconds,
      locationAggregationModel,
    }),
    type: 'LLRP',
    locationReportingEnabled: b.locationReportingEnabled ?? DEFAULTS.locationReportingEnabled,
    zoneModel: b.zoneModel ?? DEFAULTS.zoneModel,
  };
}
