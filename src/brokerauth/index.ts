// What src/brokerauth offers to other slices and to projections; everything else in
// this folder is its own (docs/architecture.md, "Boundaries").
export { clientQueueId } from './client-queues';
