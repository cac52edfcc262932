// The item engine's public API (pure: no I/O, time passed in).
export { ingest, tick, type ExpiryStrategy } from './engine';
export { emptyState, endJob } from './state';
export { engineReaderOf, engineReaders, engineRecipeOf } from './context';
export { LOCATION_ZONE_HYSTERESIS, locate, median, type ZoneAt } from './estimate';
export { zoneOfRead } from './inventory';
export { ABSENT, FACILITY } from './zones';
export {
  writesHistory,
  type ChangeKind,
  type EngineReader,
  type EngineRecipe,
  type EngineResult,
  type EngineState,
  type ItemChange,
  type ItemState,
  type JobContext,
  type JobType,
  type Position,
  type ReportFlags,
} from './types';
export { ENGINE_STREAM, itemEvents, type ItemsEvent, type ItemsReset } from './events';
export { ENGINE_STREAM_PREFIX, engineStream, engineStreams, isEngineStream, partitionOf, snapshotDirOf } from './partitions';
export { type EngineReport } from './report';
export { thresholdJobContext } from './threshold/context';
export { ThresholdTracker, type ThresholdOutput } from './threshold/tracker';
export { ThresholdIterationCodec, type ThresholdIteration, type ThresholdTransition } from './threshold/transition';
export { ITEM_RESET_STREAM, itemResetEvents, type ItemsResetRequestedData } from './item-reset';
