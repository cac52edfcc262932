// What src/facilities offers to other slices and to projections; everything else in
// this folder is its own (docs/architecture.md, "Boundaries").
export { DEFAULT_FACILITY } from './codec';
export { resolveFacility } from './facility-field';
export { facilityKind } from './kind';
export { facilitiesSlice } from './slice';
export { type UsageSource } from './usage';
