// What src/tokens offers to other slices and to projections; everything else in
// this folder is its own (docs/architecture.md, "Boundaries").
export { tokenEvents } from './events';
