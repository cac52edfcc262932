import type { Position } from '@eventstore/db-client';
import { comparePositions } from './position';

/**
 * Where a subscription remembers the last `$all` position it has fully
 * handled. `undefined` means "never ran": start from the beginning.
 */
export interface CheckpointStore {
  load(name: string): Promise<Position | undefined>;
  save(name: string, position: Position): Promise<void>;
}

/** For tests and for read models that are rebuilt on every start anyway. */
export class InMemoryCheckpointStore implements CheckpointStore {
  private readonly positions = new Map<string, Position>();

  load(name: string): Promise<Position | undefined> {
    return Promise.resolve(this.positions.get(name));
  }

  save(name: string, position: Position): Promise<void> {
    this.positions.set(name, { ...position });
    return Promise.resolve();
  }
}

/**
 * `store`, remembering in this process the newest position saved through it:
 * `load` never answers less. For subscriptions whose work is seen outside
 * (the relay's published messages): if Redis loses its data while the
 * process runs, a resubscription resumes where it was instead of from the
 * start of the log (publishing everything again).
 */
export function rememberingSaves(store: CheckpointStore): CheckpointStore {
  const saved = new Map<string, Position>();
  const newer = (a: Position | undefined, b: Position | undefined): Position | undefined =>
    a === undefined ? b : b === undefined ? a : comparePositions(a, b) >= 0 ? a : b;
  return {
    async load(name) {
      return newer(await store.load(name), saved.get(name));
    },
    async save(name, position) {
      await store.save(name, position);
      saved.set(name, newer(saved.get(name), position) ?? position);
    },
  };
}
