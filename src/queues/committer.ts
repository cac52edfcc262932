// Saves the relay's checkpoint in log order, each position only after every
// batch up to it is confirmed by the broker. Batches are published without
// waiting for their confirms (a slow fsync on the broker then delays the
// checkpoint, not the next batch); this is what keeps "checkpoint only after
// confirms" true anyway. A failed confirmation ends the generation: nothing
// queued in it is saved any more, and the relay resumes from the last saved
// position (./relay.ts).
import type { Position } from '@eventstore/db-client';
import type { CheckpointStore } from '../core/subscriptions';
import type { Logger } from '../core/logger';

export class ConfirmedCheckpoints {
  private tail: Promise<void> = Promise.resolve();
  private current = 0;
  /** A generation whose confirmation failed: nothing more of it is saved. */
  private failed = -1;
  private inFlight: Array<Promise<void>> = [];

  constructor(
    private readonly store: CheckpointStore,
    private readonly name: string,
    private readonly logger: Logger,
    /** Called once per generation, on its first failed confirmation. */
    private readonly onFailure: (err: unknown) => void,
  ) {}

  get generation(): number {
    return this.current;
  }

  /** Ends the current generation: what is queued in it is dropped. */
  newGeneration(): number {
    this.inFlight = [];
    return ++this.current;
  }

  /** Queues `position` to be saved once `confirmed` (if any) and everything queued before it resolved. */
  enqueue(generation: number, position: Position, confirmed?: Promise<void>): void {
    if (confirmed) this.inFlight.push(confirmed);
    this.tail = this.tail.then(async () => {
      if (generation !== this.current || this.failed === generation) return;
      try {
        await confirmed;
      } catch (err) {
        // Nothing after an unconfirmed batch may be saved, even batches confirmed later.
        if (generation === this.current && this.failed !== generation) {
          this.failed = generation;
          this.onFailure(err);
        }
        return;
      }
      if (generation !== this.current || this.failed === generation) return;
      if (confirmed) void this.inFlight.shift();
      await this.store.save(this.name, position).catch((err: unknown) => this.logger.warn('relay checkpoint save failed', { err }));
    });
  }

  /** Batches sent and not yet confirmed (the relay waits on the oldest past a bound). */
  pending(): readonly Promise<void>[] {
    return this.inFlight;
  }

  /** Resolves when everything queued so far is saved or dropped. */
  settled(): Promise<void> {
    return this.tail;
  }
}
