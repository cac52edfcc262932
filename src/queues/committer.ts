// Saves the relay's checkpoint in log order, each position only after every
// batch up to it is confirmed by the broker. Batches are published without
// waiting for their confirms (a slow fsync on the broker then delays the
// checkpoint, not the next batch); this is what keeps "checkpoint only after
// confirms" true anyway. A failed confirmation ends the generation: nothing
// queued in it is saved any more, and the relay resumes from the last saved
// position (./relay.ts).
import type { Position } from '@eventstore/db-client';
import type { Logger } from '../core/logger';

/** Where the confirmed positions go: `published` says whether it covers messages not covered by the previous save. */
export interface ConfirmedPositionStore {
  save(position: Position, published: boolean): Promise<void>;
}

interface Entry {
  readonly generation: number;
  /** Its batch is confirmed (or it had none). */
  ok: boolean;
  next?: Entry;
}

export class ConfirmedCheckpoints {
  private tail: Promise<void> = Promise.resolve();
  private current = 0;
  /** A generation whose confirmation failed: nothing more of it is saved. */
  private failed = -1;
  /** Confirmations not settled yet, with their message counts (a batch leaves as soon as the broker answered, before its checkpoint is saved). */
  private readonly inFlight = new Map<Promise<void>, number>();
  private inFlightMessages = 0;
  /** The entry queued last: an entry learns its successor, so a save can be skipped when a later one follows at once. */
  private last: Entry | undefined;
  /** room() callers waiting for a confirmation to settle (one wake-up each, not a race over every promise in flight). */
  private waiters: Array<() => void> = [];
  /** Messages of confirmed entries whose save was skipped for a later one: that save covers them. */
  private unsavedMessages = 0;

  constructor(
    private readonly store: ConfirmedPositionStore,
    private readonly logger: Logger,
    /** Called once per generation, on its first failed confirmation. */
    private readonly onFailure: (err: unknown) => void,
  ) {}

  get generation(): number {
    return this.current;
  }

  /** Ends the current generation: what is queued in it is dropped. */
  newGeneration(): number {
    this.inFlight.clear();
    this.inFlightMessages = 0;
    const next = ++this.current;
    this.wake();
    return next;
  }

  private wake(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w();
  }

  /** Queues `position` to be saved once `confirmed` (if any; a batch of `messages`) and everything queued before it resolved. */
  enqueue(generation: number, position: Position, confirmed?: Promise<void>, messages = 0): void {
    const entry: Entry = { generation, ok: confirmed === undefined };
    if (this.last) this.last.next = entry;
    this.last = entry;
    if (confirmed) {
      confirmed.then(() => (entry.ok = true), () => undefined);
      this.inFlight.set(confirmed, messages);
      this.inFlightMessages += messages;
      const leave = (): void => {
        const n = this.inFlight.get(confirmed);
        if (n === undefined) return; // dropped by newGeneration
        this.inFlight.delete(confirmed);
        this.inFlightMessages -= n;
        this.wake();
      };
      confirmed.then(leave, leave);
    }
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
      // The next position is confirmed already and saved right after this one: one Redis write instead of
      // two (catching up, a batch is often one event). Never skipped when the next one still waits; at worst
      // (the generation ends in between) the saved checkpoint is older: more duplicates, nothing lost.
      this.unsavedMessages += messages;
      if (entry.next?.ok && entry.next.generation === generation) return;
      const published = this.unsavedMessages > 0;
      this.unsavedMessages = 0;
      await this.store.save(position, published).catch((err: unknown) => this.logger.warn('relay checkpoint save failed', { err: err instanceof Error ? err.message : String(err) }));
    });
  }

  /** Batches sent and not yet confirmed (or failed). */
  pending(): number {
    return this.inFlight.size;
  }

  /**
   * Resolves once fewer than `max.batches` batches and `max.messages`
   * messages of `generation` wait for their confirms, or the generation
   * ended. A sliding window: the next batch goes out as soon as enough are
   * answered, not after the whole window (and its checkpoint writes) drained.
   */
  async room(generation: number, max: { batches: number; messages: number }): Promise<void> {
    while (generation === this.current && (this.inFlight.size >= max.batches || this.inFlightMessages >= max.messages)) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Resolves when everything queued so far is saved or dropped. */
  settled(): Promise<void> {
    return this.tail;
  }
}
