// A Clock (src/core/clock.ts) whose time moves only when a test says so:
// timers fire, in due order, when advance() reaches them. A test of a
// time-out or an expiry advances by the time-out instead of sleeping it.
import { systemClock, type Clock } from '../../src/core/clock';

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

/**
 * The system clock, moved on by `advance` without waiting: what a whole
 * service in a test runs on (startTestApp). Time goes on passing as usual;
 * `advance(1100)` makes the events appended next, and the item engine's now,
 * 1.1 s later than they would have been, as if the test had slept that long.
 */
export class SkewClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  setTimer(fn: () => void, ms: number): unknown {
    return systemClock.setTimer(fn, ms);
  }
  clearTimer(handle: unknown): void {
    systemClock.clearTimer(handle);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
