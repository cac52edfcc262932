// What src/thresholds offers to other slices and to projections; everything else in
// this folder is its own (docs/architecture.md, "Boundaries").
export { AntennaConfigurationBody, validateAntennaConfigurationReplace, type AntennaConfiguration } from './antenna-configuration';
export { idCounterStream, reserveId } from './id-allocator';
export { antennaConfigurationKind, nameOfId, thresholdKind } from './kind';
export { listAntennaConfigurations, listThresholds } from './readmodel';
export { type Threshold } from './threshold';
