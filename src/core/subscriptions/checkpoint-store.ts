import type { Position } from '@eventstore/db-client';

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
