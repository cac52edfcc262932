// What src/support offers to other slices and to projections; everything else in
// this folder is its own (docs/architecture.md, "Boundaries").
export { FACTORY_RESET_STREAM, SUPPORT_STREAM_PREFIX, supportEvents } from './events';
