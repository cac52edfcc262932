// What src/queues offers to other slices and to projections; everything else in
// this folder is its own (docs/architecture.md, "Boundaries").
export { queueEvents } from './events';
export { QUEUE_KINDS, clientQueueId, queueStream } from './model';
export { type QueueEvent } from './events';
export { queueListKind } from './listing';
export { QUEUE_STREAM_PREFIX } from './model';
