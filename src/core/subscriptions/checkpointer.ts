import type { Position } from '@eventstore/db-client';
import type { Logger } from '../logger';
import type { CheckpointStore } from './checkpoint-store';
import { isAfter, positionToString } from './position';

export interface CheckpointEvery {
  /** Save once this many events have been handled since the last save (default 100). */
  events?: number;
  /** ...or once this long has passed with unsaved progress (default 1000 ms). */
  ms?: number;
}

/**
 * Throttles checkpoint writes: saving after every event would double the
 * write load of a projection, and losing a few unsaved positions in a crash
 * only means replaying those events (handlers are written to be idempotent
 * unless they own their checkpoint). Only ever called from the runner's loop,
 * so saves are strictly ordered and a position never goes backwards.
 */
export class Checkpointer {
  private saved: Position | undefined;
  private pending: Position | undefined;
  private sinceSave = 0;
  private lastSaveAt = Date.now();
  private readonly everyEvents: number;
  private readonly everyMs: number;

  constructor(
    private readonly store: CheckpointStore,
    private readonly name: string,
    every: CheckpointEvery,
    private readonly logger: Logger,
  ) {
    this.everyEvents = Math.max(1, every.events ?? 100);
    this.everyMs = Math.max(1, every.ms ?? 1000);
  }

  async load(): Promise<Position | undefined> {
    this.saved = await this.store.load(this.name);
    this.pending = undefined;
    return this.saved;
  }

  /** `persisted`: the handler already stored this position itself (handler-owned mode). */
  advance(position: Position, events: number, persisted: boolean): void {
    if (persisted) {
      this.saved = position;
      this.pending = undefined;
      this.sinceSave = 0;
      this.lastSaveAt = Date.now();
      return;
    }
    if (!isAfter(position, this.pending ?? this.saved)) return;
    this.pending = position;
    this.sinceSave += events;
  }

  /** Makes the next `isDue` true, e.g. on catching up. */
  hurry(): void {
    this.sinceSave = Math.max(this.sinceSave, this.everyEvents);
  }

  isDue(): boolean {
    return this.pending !== undefined && (this.sinceSave >= this.everyEvents || this.msUntilDue() === 0);
  }

  /** How long the runner may wait for events before a pending save falls due. */
  msUntilDue(): number {
    if (this.pending === undefined) return this.everyMs;
    return Math.max(0, this.lastSaveAt + this.everyMs - Date.now());
  }

  async flush(): Promise<void> {
    const position = this.pending;
    if (position === undefined) return;
    await this.store.save(this.name, position);
    if (this.pending === position) this.pending = undefined;
    this.saved = position;
    this.sinceSave = 0;
    this.lastSaveAt = Date.now();
    this.logger.debug('checkpoint saved', { subscription: this.name, position: positionToString(position) });
  }
}
