// Where the login throttle (./throttle.ts) keeps its counts: per key, the
// failures and until when the key is closed, and the attempts in flight (a
// password check started and not yet ended). An attempt counts from its
// start: while the checks in flight could close a key if they all failed,
// further attempts under it wait instead of being checked, so parallel
// guesses get exactly the checks guesses one after the other would get. In
// this process's memory here (the fallback, and the store of unit tests); in
// Redis in ./throttle-redis.ts.
import type { Logger } from '../core/logger';
import { withTimeout } from '../core/health';

export interface ThrottlePolicy {
  /** Failures without a delay. */
  readonly freeFailures: number;
  /** Delay after the first failure beyond the free ones; doubles with each further failure. */
  readonly baseDelayMs: number;
  /** Bound of the delay. */
  readonly maxDelayMs: number;
  /** A key's failures are forgotten this long after its last failure. */
  readonly forgetAfterMs: number;
}

/** How long a key stays closed after its `failures`-th failure. */
export function delayAfter(failures: number, policy: ThrottlePolicy): number {
  if (failures <= policy.freeFailures) return 0;
  return Math.min(policy.baseDelayMs * 2 ** (failures - policy.freeFailures - 1), policy.maxDelayMs);
}

/** One key an attempt is counted under. `clearedBySuccess`: a good password forgets its failures (a user's key; not an address's). */
export interface CountedKey {
  readonly key: string;
  readonly policy: ThrottlePolicy;
  readonly clearedBySuccess: boolean;
}

/** How starting an attempt went. */
export type Start =
  | { readonly kind: 'closed'; readonly retryAfterMs: number }
  /** The checks in flight would close a key if they all failed: ask again once one ended. */
  | { readonly kind: 'wait' }
  | { readonly kind: 'started' };

/** How an attempt ended: the password was right or wrong, or its check failed (a store error), which counts nothing. */
export type Outcome = 'ok' | 'failed' | 'abandoned';

export interface ThrottleStore {
  /** Starts `attempt` under every key at once, unless a key is closed or must wait. */
  start(keys: readonly CountedKey[], attempt: string, now: number): Promise<Start>;
  /** Ends `attempt`: no longer in flight; a failure is counted under every key, a success forgets the keys cleared by it. */
  end(keys: readonly CountedKey[], attempt: string, outcome: Outcome, now: number): Promise<void>;
}

/** An attempt in flight this long is taken for lost (its process died during the check): it holds nobody back any more. */
export const IN_FLIGHT_LIMIT_MS = 10_000;

/** Whether attempts under a key with `failures` and `inFlight` checks wait: those checks, all failing, would close it. */
export const mustWait = (failures: number, inFlight: number, policy: ThrottlePolicy): boolean => inFlight > 0 && failures + inFlight > policy.freeFailures;

interface Entry {
  readonly failures: number;
  /** Epoch ms until which the key is closed (0: open). */
  readonly closedUntil: number;
  readonly forgetAt: number;
}

const NONE: Entry = { failures: 0, closedUntil: 0, forgetAt: 0 };

/** Counts in this process only: the fallback, and the store of tests. */
export class MemoryThrottleStore implements ThrottleStore {
  private readonly entries = new Map<string, Entry>();
  /** key -> attempt -> when it started. */
  private readonly inFlight = new Map<string, Map<string, number>>();

  constructor(private readonly maxEntries = 100_000) {}

  start(keys: readonly CountedKey[], attempt: string, now: number): Promise<Start> {
    let closedUntil = 0;
    let wait = false;
    for (const k of keys) {
      const entry = this.entry(k.key, now);
      closedUntil = Math.max(closedUntil, entry.closedUntil);
      wait ||= mustWait(entry.failures, this.flying(k.key, now).size, k.policy);
    }
    if (closedUntil > now) return Promise.resolve({ kind: 'closed', retryAfterMs: closedUntil - now });
    if (wait) return Promise.resolve({ kind: 'wait' });
    for (const k of keys) this.inFlight.set(k.key, this.flying(k.key, now).set(attempt, now));
    return Promise.resolve({ kind: 'started' });
  }

  end(keys: readonly CountedKey[], attempt: string, outcome: Outcome, now: number): Promise<void> {
    for (const k of keys) {
      const flying = this.inFlight.get(k.key);
      flying?.delete(attempt);
      if (flying?.size === 0) this.inFlight.delete(k.key);
      if (outcome === 'failed') this.fail(k, now);
      else if (outcome === 'ok' && k.clearedBySuccess) this.entries.delete(k.key);
    }
    return Promise.resolve();
  }

  private entry(key: string, now: number): Entry {
    const e = this.entries.get(key);
    return e === undefined || e.forgetAt <= now ? NONE : e;
  }

  /** The attempts in flight under `key`, those past IN_FLIGHT_LIMIT_MS dropped. */
  private flying(key: string, now: number): Map<string, number> {
    const flying = this.inFlight.get(key) ?? new Map<string, number>();
    for (const [attempt, at] of flying) if (at <= now - IN_FLIGHT_LIMIT_MS) flying.delete(attempt);
    if (flying.size === 0) this.inFlight.delete(key);
    return flying;
  }

  // One more failure; closes the key per delayAfter, never shortening a closure already set.
  private fail(k: CountedKey, now: number): void {
    const prev = this.entry(k.key, now);
    const failures = prev.failures + 1;
    const delay = delayAfter(failures, k.policy);
    const closedUntil = Math.max(prev.closedUntil, delay > 0 ? now + delay : 0);
    this.entries.delete(k.key); // re-inserted last: the first entries are the oldest
    this.entries.set(k.key, { failures, closedUntil, forgetAt: now + k.policy.forgetAfterMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }
}

/**
 * Redis first; when it fails or does not answer within `timeoutMs`, the
 * in-memory store of this process. An outage is logged once, and its end.
 */
export class FallbackThrottleStore implements ThrottleStore {
  private degraded = false;
  private lastTry = 0;

  constructor(
    private readonly primary: ThrottleStore,
    private readonly fallback: ThrottleStore,
    private readonly logger: Logger,
    private readonly timeoutMs = 500,
    /** While degraded, Redis is tried again at most this often, so logins do not each wait for the timeout. */
    private readonly retryEveryMs = 5000,
    private readonly clock: () => number = Date.now,
  ) {}

  start(keys: readonly CountedKey[], attempt: string, now: number): Promise<Start> {
    return this.run((s) => s.start(keys, attempt, now));
  }

  end(keys: readonly CountedKey[], attempt: string, outcome: Outcome, now: number): Promise<void> {
    return this.run((s) => s.end(keys, attempt, outcome, now));
  }

  private async run<T>(op: (s: ThrottleStore) => Promise<T>): Promise<T> {
    if (this.degraded && this.clock() - this.lastTry < this.retryEveryMs) return op(this.fallback);
    this.lastTry = this.clock();
    try {
      const result = await withTimeout(op(this.primary), this.timeoutMs, 'redis (login throttle)');
      if (this.degraded) this.logger.info('login throttle: counting in Redis again');
      this.degraded = false;
      return result;
    } catch (err) {
      if (!this.degraded) this.logger.warn('login throttle: Redis unavailable, counting failed logins in this process meanwhile', { err });
      this.degraded = true;
      return op(this.fallback);
    }
  }
}
