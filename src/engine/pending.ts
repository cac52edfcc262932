// The compute window of a run: what the engine decided since its last
// append (item changes, threshold transitions and iteration records), held
// until the next append (after the batch it came from) writes it as ItemsChanged.
import { emptyOutput, type ThresholdOutput } from './threshold/tracker';
import type { ItemChange } from './types';

export interface TakenOutput {
  readonly changes: ItemChange[];
  readonly threshold: ThresholdOutput;
  /** Append time of the oldest report behind the changes: report -> item latency, one sample per append. */
  readonly oldestReportMs: number | undefined;
}

export class PendingOutput {
  private changes: ItemChange[] = [];
  private oldestReportMs: number | undefined;
  /** Threshold transitions (and iteration records) decided since the last append: the tracker adds to it. */
  threshold: ThresholdOutput = emptyOutput();

  /** Item changes pending. */
  get changeCount(): number {
    return this.changes.length;
  }

  get isEmpty(): boolean {
    return this.changes.length === 0 && this.threshold.transitions.length === 0 && this.threshold.iterations.length === 0;
  }

  /** Adds changes; `reportMs`: the append time of the report they come from (none for expiries). */
  add(changes: readonly ItemChange[], reportMs?: number): void {
    this.changes.push(...changes);
    if (reportMs !== undefined && changes.length > 0) this.oldestReportMs ??= reportMs;
  }

  /** Everything pending, leaving the window empty. */
  take(): TakenOutput {
    const taken = { changes: this.changes, threshold: this.threshold, oldestReportMs: this.oldestReportMs };
    this.changes = [];
    this.threshold = emptyOutput();
    this.oldestReportMs = undefined;
    return taken;
  }
}
