// Time for the agents: a Clock (real, or fake in tests) and the reporting
// window schedule. Windows are aligned on the reading start: window k covers
// [start + k*I, start + (k+1)*I) and is reported when it ends.
import { sleep } from '../core/retry';

export interface Clock {
  now(): number;
  /** Resolves after ms (at once if <= 0), or when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep,
};

/** A recipe's reportingInterval in milliseconds: 0 means 500 ms. */
export function reportingIntervalMs(reportingInterval: unknown): number {
  const n = typeof reportingInterval === 'number' && Number.isFinite(reportingInterval) && reportingInterval >= 0 ? reportingInterval : 5;
  return n === 0 ? 500 : n * 1000;
}

export interface Window {
  readonly index: number;
  readonly from: number;
  readonly to: number;
}

export class ReportSchedule {
  private nextIndex = 0;

  constructor(
    readonly startMs: number,
    readonly intervalMs: number,
  ) {}

  /** When the next window ends (its report is due). */
  dueAt(): number {
    return this.startMs + (this.nextIndex + 1) * this.intervalMs;
  }

  /**
   * The window to report at `now` (which should be >= dueAt()). When the
   * agent was held up for more than a window (a pause, a slow server), the
   * windows it missed are skipped: it reports the latest complete one.
   */
  take(now: number): Window {
    const latest = Math.floor((now - this.startMs) / this.intervalMs) - 1;
    const index = Math.max(this.nextIndex, latest);
    this.nextIndex = index + 1;
    return { index, from: this.startMs + index * this.intervalMs, to: this.startMs + (index + 1) * this.intervalMs };
  }
}
