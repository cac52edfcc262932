// What src/defaults offers to other slices and to projections; everything else in
// this folder is its own (docs/architecture.md, "Boundaries").
export { FACTORY_DEFAULT_STREAMS, factoryDefaultsSlice } from './slice';
