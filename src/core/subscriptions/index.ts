export * from './checkpoint-store';
export * from './redis-checkpoint-store';
export * from './run-subscription';
export { comparePositions, isAfter, parsePosition, positionToString } from './position';
export { matchesFilter } from './catch-up-target';
export type { CheckpointEvery } from './checkpointer';
