// When and how a run takes a snapshot of its state (docs/item-processing.md,
// "Snapshots"). Right after an append the state is exactly what the output up
// to the last event implies (handler and cycle are serialized, nothing is
// pending): the moment to capture it. Capturing copies references (cheap);
// encoding and writing run in the background, one snapshot at a time.
import type { Logger } from '../core/logger';
import type { ConfigEntry } from './configuration';
import { captureState, chunkCount, encodeSections, type SnapshotHeader } from './snapshot';
import { writeSnapshot } from './snapshot-store';
import type { OpenPassages } from './threshold/passages';
import type { EngineState } from './types';

export interface SnapshotPolicy {
  /** Directory of the snapshot files (DATA_DIR/engine-snapshots). */
  readonly dir: string;
  /** A snapshot is taken after an append once this many changes were appended since the last one (0: not by count). */
  readonly everyChanges: number;
  /** ... or once this long has passed since the last one (or the start) and something was appended (0: not by time). */
  readonly everyMs: number;
}

/** What a snapshot captures: the state and where in the output it stands. */
export interface SnapshotSubject {
  readonly state: EngineState;
  readonly revision: bigint;
  readonly eventId: string;
  readonly inputPosition: string;
  readonly passages: () => OpenPassages;
  /** The engine's configuration as of inputPosition (./configuration.ts). */
  readonly configuration: readonly ConfigEntry[];
}

export class Snapshotter {
  private changesSinceSnapshot = 0;
  private lastSnapshotAt: number;
  private writing: Promise<void> | undefined;

  constructor(
    private readonly policy: SnapshotPolicy,
    private readonly clock: () => number,
    private readonly log: Logger,
  ) {
    this.lastSnapshotAt = clock();
  }

  /** Counts the changes of an append toward `everyChanges`. */
  appended(changes: number): void {
    this.changesSinceSnapshot += changes;
  }

  /** Takes a snapshot of `subject` when one is due by count or by time and none is being written; the write runs in the background. */
  maybeTake(subject: SnapshotSubject): void {
    if (this.writing !== undefined) return;
    const now = this.clock();
    const byCount = this.policy.everyChanges > 0 && this.changesSinceSnapshot >= this.policy.everyChanges;
    const byTime = this.policy.everyMs > 0 && now - this.lastSnapshotAt >= this.policy.everyMs;
    if (!byCount && !byTime) return;
    this.take(subject);
  }

  /**
   * Takes a snapshot of `subject` now (after the one being written, if any).
   * A run that stops takes one: the next run then starts with the reads still
   * waiting in compute windows and decides them as this run would have.
   */
  async takeNow(subject: SnapshotSubject): Promise<void> {
    await this.settled();
    this.take(subject);
    await this.settled();
  }

  private take(subject: SnapshotSubject): void {
    const now = this.clock();
    this.changesSinceSnapshot = 0;
    this.lastSnapshotAt = now;
    const started = Date.now();
    const captured = captureState(subject.state);
    const captureMs = Date.now() - started;
    const header: SnapshotHeader = {
      position: { revision: subject.revision.toString(), eventId: subject.eventId, inputPosition: subject.inputPosition },
      takenAt: now,
      passages: subject.passages(),
      configuration: [...subject.configuration],
      isolated: [...captured.isolated],
      items: captured.views.reduce((n, v) => n + v.items.length, 0),
      chunks: chunkCount(captured),
    };
    this.writing = writeSnapshot(this.policy.dir, header, encodeSections(captured))
      .then(({ bytes }) => this.log.info('engine snapshot written', { revision: header.position.revision, items: header.items, bytes, captureMs, ms: Date.now() - started }))
      // A snapshot is a cache: failing to write one costs a longer replay at the next start, nothing else.
      .catch((err: unknown) => this.log.warn('engine snapshot not written', { err: err instanceof Error ? err.message : String(err) }))
      .finally(() => {
        this.writing = undefined;
      });
  }

  /** Resolves once the snapshot being written (if any) is done. */
  async settled(): Promise<void> {
    await this.writing;
  }
}
