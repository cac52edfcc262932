// Which fields each recipe type takes, their defaults, and which reader
// configuration operation each type runs. A field of another type is
// refused with a 400 naming it, rather than silently dropped: it would
// otherwise look accepted and do nothing.
import type { FieldError } from '../core/http/errors';
import type { ActiveOperation } from '../readerconfigurations';
import type { Given } from '../core/given';
import type { RecipeBody } from './codec';
import type { RecipeType } from './model';

export type GivenRecipe = Given<RecipeBody>;

export const TYPE_FIELDS = [
  'tagHeartbeatDuration',
  'tagHeartbeatMinutes',
  'tagExpiryDuration',
  'minimumMovementInMeters',
  'computeWindow',
  'reportingInterval',
  'thresholdIds',
  'profile',
  'iterationDataLogEnabled',
  'transitionParameters',
  'presencePipelineEnabled',
  'locationReportingEnabled',
  'zoneModel',
  'locationUpdateIntervalInSeconds',
  'historyWindowSizeInCycles',
  'computeWindowSizeInCycles',
  'computeWindowTimeInSeconds',
  'locationAggregationModel',
] as const satisfies ReadonlyArray<keyof RecipeBody>;
export type TypeField = (typeof TYPE_FIELDS)[number];

const TIMED: readonly TypeField[] = [
  'tagHeartbeatDuration',
  'tagHeartbeatMinutes',
  'tagExpiryDuration',
  'computeWindow',
  'reportingInterval',
];

/**
 * LLRP takes only its deprecated fields (docs/interface.md). INVENTORY also takes
 * locationAggregationModel because the Java client always sends it there
 * (default BY_TIME); it is stored and returned, and has no effect.
 */
export const FIELDS_OF: Readonly<Record<RecipeType, readonly TypeField[]>> = {
  LOCATION: [...TIMED, 'minimumMovementInMeters'],
  INVENTORY: [...TIMED, 'locationAggregationModel'],
  THRESHOLD: ['thresholdIds', 'profile', 'iterationDataLogEnabled', 'transitionParameters'],
  LLRP: [
    'presencePipelineEnabled',
    'locationReportingEnabled',
    'zoneModel',
    'locationUpdateIntervalInSeconds',
    'historyWindowSizeInCycles',
    'computeWindowSizeInCycles',
    'computeWindowTimeInSeconds',
    'locationAggregationModel',
  ],
};

const TYPES: readonly RecipeType[] = ['LOCATION', 'INVENTORY', 'THRESHOLD', 'LLRP'];

export function typeFieldErrors(type: RecipeType, b: GivenRecipe): FieldError[] {
  return TYPE_FIELDS.filter((f) => b[f] !== undefined && !FIELDS_OF[type].includes(f)).map((f) => ({
    path: `body.${f}`,
    reason: `applies only to ${TYPES.filter((ty) => FIELDS_OF[ty].includes(f)).join(' or ')} recipes, not ${type}`,
  }));
}

/**
 * The reader configuration operation a recipe type runs; DO_NOTHING is
 * always allowed too. LLRP pairs with NORMAL: both are the earlier
 * revision's names in the place THRESHOLD has now.
 */
export const OPERATION_OF: Readonly<Record<RecipeType, ActiveOperation>> = {
  LOCATION: 'LOCATION',
  INVENTORY: 'INVENTORY',
  THRESHOLD: 'THRESHOLD',
  LLRP: 'NORMAL',
};

/** Factory defaults seen in the field (docs/interface.md) and the published interface's defaults. */
export const DEFAULTS = {
  tagHeartbeatMs: 5 * 60_000, // PT5M
  reportingInterval: 5,
  computeWindow: { LOCATION: 10, INVENTORY: 20 },
  minimumMovementInMeters: 1,
  iterationDataLogEnabled: false,
  locationReportingEnabled: true,
  zoneModel: 'GEOGRAPHIC',
} as const;
