// Time as a dependency. Code whose behaviour depends on time passing (time-
// outs, remembered answers, expiry, schedules) takes a Clock, so a test moves
// time forward (test/support/clock.ts) instead of waiting for it, and a
// loaded machine cannot make such a test flaky. Production code gets
// systemClock by default.
export interface Clock {
  now(): Date;
  /** Calls `fn` once, `ms` from now; the handle is for clearTimer. */
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

// setTimeout fires at once for a delay above 2^31-1 ms (about 24.8 days).
const MAX_TIMER_MS = 2_147_483_647;

export const systemClock: Clock = {
  now: () => new Date(),
  setTimer: (fn, ms) => setTimeout(fn, Math.min(ms, MAX_TIMER_MS)),
  clearTimer: (h) => clearTimeout(h as NodeJS.Timeout),
};
