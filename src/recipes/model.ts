// The stored recipe: what validation produces, what the events carry and
// what the job runner and item engine read. Defaults are applied on
// validation, so every processing parameter is present. Durations are kept
// as canonical ISO 8601 strings (core/duration.ts); parse them for
// milliseconds. Types are derived from the codecs so they cannot drift.
import * as t from 'io-ts';
import { oneOf } from '../core/codecs';
import { TransitionParameters } from './transition-parameters';

/** `LLRP` is the earlier revision's type in place of THRESHOLD; accepted and stored as given. */
export const RecipeType = t.keyof({ LOCATION: null, INVENTORY: null, THRESHOLD: null, LLRP: null });
export type RecipeType = t.TypeOf<typeof RecipeType>;

/** Seconds; 0 means 500 ms and is for LOCATION only. */
export const REPORTING_INTERVALS = [0, 1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60] as const;
export const ReportingInterval = oneOf(REPORTING_INTERVALS, `one of ${REPORTING_INTERVALS.join(', ')}`);
export type ReportingInterval = t.TypeOf<typeof ReportingInterval>;

export const ZoneModel = t.keyof({ GEOGRAPHIC: null, GATEWAY: null });
export type ZoneModel = t.TypeOf<typeof ZoneModel>;

export const LocationAggregationModel = t.keyof({ BY_TIME: null, BY_CYCLES: null });
export type LocationAggregationModel = t.TypeOf<typeof LocationAggregationModel>;

/** Reader definition name -> reader configuration name; overrides the default for those readers. */
const ReaderConfigurationMap = t.readonly(t.record(t.string, t.string));

const common = { name: t.string, readerConfigurations: ReaderConfigurationMap };
/** Absent when only per-reader configurations are given. */
const optionalCommon = { readerConfigurationName: t.string };

export const LocationRecipe = t.readonly(
  t.intersection([
    t.type({
      ...common,
      type: t.literal('LOCATION'),
      tagHeartbeatDuration: t.string,
      minimumMovementInMeters: t.number,
      computeWindow: t.number,
      reportingInterval: ReportingInterval,
    }),
    t.partial({ ...optionalCommon, tagExpiryDuration: t.string }),
  ]),
  'LocationRecipe',
);
export type LocationRecipe = t.TypeOf<typeof LocationRecipe>;

export const InventoryRecipe = t.readonly(
  t.intersection([
    t.type({
      ...common,
      type: t.literal('INVENTORY'),
      tagHeartbeatDuration: t.string,
      computeWindow: t.number,
      reportingInterval: ReportingInterval,
    }),
    t.partial({ ...optionalCommon, tagExpiryDuration: t.string, locationAggregationModel: LocationAggregationModel }),
  ]),
  'InventoryRecipe',
);
export type InventoryRecipe = t.TypeOf<typeof InventoryRecipe>;

export const ThresholdRecipe = t.readonly(
  t.intersection([
    t.type({
      ...common,
      type: t.literal('THRESHOLD'),
      /** Empty: every threshold of the job's facility. */
      thresholdIds: t.readonlyArray(t.number),
      iterationDataLogEnabled: t.boolean,
    }),
    t.partial({ ...optionalCommon, profile: t.string, transitionParameters: TransitionParameters }),
  ]),
  'ThresholdRecipe',
);
export type ThresholdRecipe = t.TypeOf<typeof ThresholdRecipe>;

export const LlrpRecipe = t.readonly(
  t.intersection([
    t.type({ ...common, type: t.literal('LLRP'), locationReportingEnabled: t.boolean, zoneModel: ZoneModel }),
    t.partial({
      ...optionalCommon,
      presencePipelineEnabled: t.boolean,
      locationUpdateIntervalInSeconds: t.number,
      historyWindowSizeInCycles: t.number,
      computeWindowSizeInCycles: t.number,
      computeWindowTimeInSeconds: t.number,
      locationAggregationModel: LocationAggregationModel,
    }),
  ]),
  'LlrpRecipe',
);
export type LlrpRecipe = t.TypeOf<typeof LlrpRecipe>;

export const Recipe = t.union([LocationRecipe, InventoryRecipe, ThresholdRecipe, LlrpRecipe], 'Recipe');
export type Recipe = t.TypeOf<typeof Recipe>;
