// The stored recipe as the interface returns it: the common fields plus the
// fields of its type, unset optional ones as null, readerConfigurations
// always an object (possibly empty). The deprecated tagHeartbeatMinutes is
// not returned: it was converted to tagHeartbeatDuration, and a client that
// sent back both would be refused (Errors 1).
import { assertNever } from '../core/codecs';
import type { TransitionParameters } from './transition-parameters';
import type { LocationAggregationModel, Recipe, RecipeType, ReportingInterval, ZoneModel } from './model';

interface CommonResponse<T extends RecipeType> {
  readonly name: string;
  readonly type: T;
  readonly readerConfigurationName: string | null;
  readonly readerConfigurations: Readonly<Record<string, string>>;
}

interface TimedResponse {
  readonly tagHeartbeatDuration: string;
  readonly tagExpiryDuration: string | null;
  readonly computeWindow: number;
  readonly reportingInterval: ReportingInterval;
}

export interface LocationRecipeResponse extends CommonResponse<'LOCATION'>, TimedResponse {
  readonly minimumMovementInMeters: number;
}

export interface InventoryRecipeResponse extends CommonResponse<'INVENTORY'>, TimedResponse {
  readonly locationAggregationModel: LocationAggregationModel | null;
}

export interface ThresholdRecipeResponse extends CommonResponse<'THRESHOLD'> {
  readonly thresholdIds: readonly number[];
  readonly profile: string | null;
  readonly iterationDataLogEnabled: boolean;
  /** As given (null: all defaults); members not given take their defaults (docs/item-processing.md). */
  readonly transitionParameters: TransitionParameters | null;
}

export interface LlrpRecipeResponse extends CommonResponse<'LLRP'> {
  readonly presencePipelineEnabled: boolean | null;
  readonly locationReportingEnabled: boolean;
  readonly zoneModel: ZoneModel;
  readonly locationUpdateIntervalInSeconds: number | null;
  readonly historyWindowSizeInCycles: number | null;
  readonly computeWindowSizeInCycles: number | null;
  readonly computeWindowTimeInSeconds: number | null;
  readonly locationAggregationModel: LocationAggregationModel | null;
}

export type RecipeResponse =
  | LocationRecipeResponse
  | InventoryRecipeResponse
  | ThresholdRecipeResponse
  | LlrpRecipeResponse;

export function toResponse(r: Recipe): RecipeResponse {
  const common = {
    name: r.name,
    readerConfigurationName: r.readerConfigurationName ?? null,
    readerConfigurations: { ...r.readerConfigurations },
  };
  switch (r.type) {
    case 'LOCATION':
    case 'INVENTORY': {
      const timed = {
        ...common,
        tagHeartbeatDuration: r.tagHeartbeatDuration,
        tagExpiryDuration: r.tagExpiryDuration ?? null,
        computeWindow: r.computeWindow,
        reportingInterval: r.reportingInterval,
      };
      return r.type === 'LOCATION'
        ? { ...timed, type: r.type, minimumMovementInMeters: r.minimumMovementInMeters }
        : { ...timed, type: r.type, locationAggregationModel: r.locationAggregationModel ?? null };
    }
    case 'THRESHOLD':
      return {
        ...common,
        type: r.type,
        thresholdIds: [...r.thresholdIds],
        profile: r.profile ?? null,
        iterationDataLogEnabled: r.iterationDataLogEnabled,
        transitionParameters: r.transitionParameters ?? null,
      };
    case 'LLRP':
      return {
        ...common,
        type: r.type,
        presencePipelineEnabled: r.presencePipelineEnabled ?? null,
        locationReportingEnabled: r.locationReportingEnabled,
        zoneModel: r.zoneModel,
        locationUpdateIntervalInSeconds: r.locationUpdateIntervalInSeconds ?? null,
        historyWindowSizeInCycles: r.historyWindowSizeInCycles ?? null,
        computeWindowSizeInCycles: r.computeWindowSizeInCycles ?? null,
        computeWindowTimeInSeconds: r.computeWindowTimeInSeconds ?? null,
        locationAggregationModel: r.locationAggregationModel ?? null,
      };
    default:
      return assertNever(r);
  }
}
