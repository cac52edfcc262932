// What src/readerdefinitions offers to other slices and to projections; everything else in
// this folder is its own (docs/architecture.md, "Boundaries").
export { normalizeFloor, type Placement, type ReaderDefinition } from './codec';
export { type IotConnection, withoutPassword } from './connection';
export { failFeatureChange, requireReader, runFeatureChange, takeFeatureChange } from './feature-commands';
export { READER_FEATURES_KIND, READER_FEATURES_STREAM_PREFIX, ReaderFeatureReadModel, featureEventWrites } from './feature-readmodel';
export { FEATURE_NAMES, FeatureName, FeatureParams, FeatureStatusValue, featureChangeEvents, type FeatureChangeEvent } from './features';
export { readerDefinitionKind, readerDefinitionOf, readerDefinitionsOf } from './kind';
export { FiniteNumber, Integer, IntegerFromString, IsoTimestamp, NonEmptyString, NonNegativeInteger, PositiveInteger, failureReason, nullable } from './primitives';
export { ANTENNA_ID_RULE, READER_TYPES, ReaderType, isAntennaId } from './reader-types';
export { toResponse } from './response';
