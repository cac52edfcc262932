// A Clock (src/core/clock.ts) whose time moves only when a test says so:
// timers fire, in due order, when advance() reaches them. A test of a
// time-out or an expiry advances by the time-out instead of sleeping it.
import type { Clock } from '../../src/core/clock';

export class ManualClock implements Clock {
  private t: number;
  private nextId = 0;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();

  constructor(start: number | Date = Date.parse('2026-03-01T08:00:00.000Z')) {
    this.t = typeof start === 'number' ? start : start.getTime();
  }
  now(): Date {
    return new Date(this.t);
  }
  setTimer(fn: () => void, ms: number): unknown {
    const id = ++this.nextId;
    this.timers.set(id, { at: this.t + ms, fn });
    return id;
  }
  clearTimer(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  /** Timers still pending (cleared and fired ones excluded). */
  pending(): number {
    return this.timers.size;
  }
  /** Moves time forward by `ms`, firing every timer that falls due on the way, earliest first. */
  advance(ms: number): void {
    this.t += ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, x]) => x.at <= this.t).sort((a, b) => a[1].at - b[1].at)[0];
      if (due === undefined) return;
      this.timers.delete(due[0]);
      due[1].fn();
    }
  }
}
