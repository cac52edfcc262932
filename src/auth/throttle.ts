// Failed-login throttling. Password checks (Basic credentials over REST, and
// the broker's login endpoint) count failures per user name at a client
// address, and per address whatever the name. A few failures are free (typos);
// after that each failure closes the key for a delay that doubles, up to a
// bound; while a key is closed, logins of it are refused (429 with
// Retry-After) without checking the password, so guessing cannot go faster
// than the delays allow. A success clears the user's count at that address.
//
// A guess counts from when its check starts, not only once it has failed:
// checks in flight are counted beside the failures, and while they could
// close a key if they all failed, a further login under that key waits for
// them instead of being checked. Counted only at their failure, parallel
// guesses would all be checked before the first failure was recorded (80 of
// 80 under many names from one address), and the moment a hold ended every
// guess sent then would pass. Now parallel guesses get the checks that guesses
// one after the other get: 6 for a user at an address, 31 for an address, and
// one after a hold, which holds the key again at once. Good logins are never
// refused for it: they wait for the checks in flight, six at a time per user
// and address.
//
// Never per user name alone: anyone could then keep the admin out from
// anywhere by failing its logins. Keyed by name and address, an attacker only
// closes its own address, for a bounded time; the admin logs in from another.
//
// The counts live in Redis, so every api process sees the same ones; when
// Redis does not answer quickly, each process keeps counting in memory (the
// throttle still holds, per process) rather than letting guesses through or
// failing logins.
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../core/redis/connect';
import type { RedisKeys } from '../core/redis/keys';
import type { Logger } from '../core/logger';
import { systemClock, type Clock } from '../core/clock';
import { FallbackThrottleStore, MemoryThrottleStore, type CountedKey, type Outcome, type ThrottlePolicy, type ThrottleStore } from './throttle-store';
import { RedisThrottleStore } from './throttle-redis';

export { delayAfter, FallbackThrottleStore, MemoryThrottleStore, type ThrottlePolicy, type ThrottleStore } from './throttle-store';
export { RedisThrottleStore } from './throttle-redis';

/** Per user name at an address. */
export const USER_AT_ADDRESS: ThrottlePolicy = { freeFailures: 5, baseDelayMs: 1000, maxDelayMs: 5 * 60_000, forgetAfterMs: 30 * 60_000 };
/** Per address, whatever the user name (many users may share an address). */
export const ADDRESS: ThrottlePolicy = { freeFailures: 30, baseDelayMs: 1000, maxDelayMs: 5 * 60_000, forgetAfterMs: 30 * 60_000 };

/**
 * How often a waiting login asks again when no check of this process ended:
 * the checks it waits for may be another api process's.
 */
const RECHECK_MS = 50;

export interface LoginThrottleOptions {
  readonly clock?: () => number;
  readonly userAtAddress?: ThrottlePolicy;
  readonly address?: ThrottlePolicy;
}

/** Where a login comes from. `sharedAddress`: the address stands for many clients (the broker), so it is not counted on its own. */
export interface LoginOrigin {
  readonly address: string;
  readonly sharedAddress?: boolean;
}

/** How a password check under the throttle went: held back unchecked, or checked. */
export type AttemptOutcome = { readonly heldBackMs: number } | { readonly ok: boolean };

export class LoginThrottle {
  private readonly clock: () => number;
  private readonly userPolicy: ThrottlePolicy;
  private readonly addressPolicy: ThrottlePolicy;
  /** Logins of this process waiting for checks in flight, by key. */
  private readonly waiting = new Map<string, Set<() => void>>();
  /** Checks of this process ended so far: a login that saw one end while it asked asks again at once. */
  private ended = 0;

  constructor(
    private readonly store: ThrottleStore,
    opts: LoginThrottleOptions = {},
  ) {
    this.clock = opts.clock ?? Date.now;
    this.userPolicy = opts.userAtAddress ?? USER_AT_ADDRESS;
    this.addressPolicy = opts.address ?? ADDRESS;
  }

  /**
   * One password check (`verify`) under the throttle: held back while the
   * user at that address (or the address) is closed; else checked once the
   * checks in flight leave room, and counted.
   */
  async attempt(username: string, origin: LoginOrigin, verify: () => Promise<boolean>): Promise<AttemptOutcome> {
    const keys = this.keysOf(username, origin);
    const attempt = randomUUID();
    for (;;) {
      const seen = this.ended;
      const start = await this.store.start(keys, attempt, this.clock());
      if (start.kind === 'closed') return { heldBackMs: start.retryAfterMs };
      if (start.kind === 'started') break;
      if (this.ended === seen) await this.nextEnd(keys);
    }
    // A check that throws (Redis gone while reading the user) says nothing of the password: counted neither way.
    let outcome: Outcome = 'abandoned';
    try {
      outcome = (await verify()) ? 'ok' : 'failed';
      return { ok: outcome === 'ok' };
    } finally {
      await this.store.end(keys, attempt, outcome, this.clock());
      this.ended++;
      for (const k of keys) for (const wake of [...(this.waiting.get(k.key) ?? [])]) wake();
    }
  }

  /** The keys a login is counted under: the user at the address, and the address unless it is shared. */
  private keysOf(username: string, origin: LoginOrigin): CountedKey[] {
    const user: CountedKey = { key: `user ${origin.address} ${username}`, policy: this.userPolicy, clearedBySuccess: true };
    return origin.sharedAddress ? [user] : [user, { key: `address ${origin.address}`, policy: this.addressPolicy, clearedBySuccess: false }];
  }

  /** Resolves when a check under one of `keys` ends in this process, or after RECHECK_MS. */
  private nextEnd(keys: readonly CountedKey[]): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        for (const k of keys) {
          const set = this.waiting.get(k.key);
          set?.delete(done);
          if (set?.size === 0) this.waiting.delete(k.key);
        }
        resolve();
      };
      const timer = setTimeout(done, RECHECK_MS);
      for (const k of keys) this.waiting.set(k.key, (this.waiting.get(k.key) ?? new Set()).add(done));
    });
  }
}

/**
 * The throttle of a process: Redis, with this process's memory as fallback.
 * `clock`: the service's (a test moves it on to end a hold instead of waiting).
 */
export function loginThrottle(redis: RedisClient, keys: RedisKeys, logger: Logger, clock: Clock = systemClock): LoginThrottle {
  const now = (): number => clock.now().getTime();
  return new LoginThrottle(new FallbackThrottleStore(new RedisThrottleStore(redis, keys), new MemoryThrottleStore(), logger, undefined, undefined, now), { clock: now });
}
