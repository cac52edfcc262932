// What src/queues offers to other slices and to projections; everything else in
// this folder is its own (docs/architecture.md, "Boundaries").
export { queueEvents } from './events';
export { RelayLease } from './lease';
export { QUEUE_KINDS, queueStream } from './model';
