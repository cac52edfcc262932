// Failed-login throttling. Password checks (Basic credentials over REST, and
// the broker's login endpoint) count failures per user name at a client
// address, and per address whatever the name. A few failures are free (typos);
// after that each failure closes the key for a delay that doubles, up to a
// bound; while a key is closed, logins of it are refused (429 with
// Retry-After) without checking the password, so guessing cannot go faster
// than the delays allow. A success clears the user's count at that address.
//
// Never per user name alone: anyone could then keep the admin out from
// anywhere by failing its logins. Keyed by name and address, an attacker only
// closes its own address, for a bounded time; the admin logs in from another.
//
// The counts live in Redis, so every api process sees the same ones; when
// Redis does not answer quickly, each process keeps counting in memory (the
// throttle still holds, per process) rather than letting guesses through or
// failing logins.
import type { RedisClient } from '../core/redis/connect';
import type { RedisKeys } from '../core/redis/keys';
import type { Logger } from '../core/logger';
import { sha256Hex } from '../core/digest';
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

/** Per user name at an address. */
export const USER_AT_ADDRESS: ThrottlePolicy = { freeFailures: 5, baseDelayMs: 1000, maxDelayMs: 5 * 60_000, forgetAfterMs: 30 * 60_000 };
/** Per address, whatever the user name (many users may share an address). */
export const ADDRESS: ThrottlePolicy = { freeFailures: 30, baseDelayMs: 1000, maxDelayMs: 5 * 60_000, forgetAfterMs: 30 * 60_000 };

/** How long a key stays closed after its `failures`-th failure. */
export function delayAfter(failures: number, policy: ThrottlePolicy): number {
  if (failures <= policy.freeFailures) return 0;
  return Math.min(policy.baseDelayMs * 2 ** (failures - policy.freeFailures - 1), policy.maxDelayMs);
}

export interface KeyState {
  readonly failures: number;
  /** Epoch ms until which the key is closed (0: open). */
  readonly closedUntil: number;
}

/** Where the counts are kept. */
export interface ThrottleStore {
  read(keys: readonly string[]): Promise<KeyState[]>;
  fail(key: string, policy: ThrottlePolicy, now: number): Promise<void>;
  clear(key: string): Promise<void>;
}

const OPEN: KeyState = { failures: 0, closedUntil: 0 };

/** Counts in this process only: the fallback, and the store of tests. */
export class MemoryThrottleStore implements ThrottleStore {
  private readonly entries = new Map<string, KeyState & { forgetAt: number }>();

  constructor(
    private readonly clock: () => number = Date.now,
    private readonly maxEntries = 100_000,
  ) {}

  read(keys: readonly string[]): Promise<KeyState[]> {
    const now = this.clock();
    return Promise.resolve(
      keys.map((k) => {
        const e = this.entries.get(k);
        return e === undefined || e.forgetAt <= now ? OPEN : e;
      }),
    );
  }

  fail(key: string, policy: ThrottlePolicy, now: number): Promise<void> {
    const prev = this.entries.get(key);
    const failures = (prev === undefined || prev.forgetAt <= now ? 0 : prev.failures) + 1;
    const delay = delayAfter(failures, policy);
    const closedUntil = Math.max(prev?.closedUntil ?? 0, delay > 0 ? now + delay : 0);
    this.entries.delete(key); // re-inserted last: the first entries are the oldest
    this.entries.set(key, { failures, closedUntil, forgetAt: now + policy.forgetAfterMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
    return Promise.resolve();
  }

  clear(key: string): Promise<void> {
    this.entries.delete(key);
    return Promise.resolve();
  }
}

// Increments the failures, closes the key per delayAfter (never shortening a
// closure already set), renews its expiry. Mirrors MemoryThrottleStore.fail.
const FAIL_SCRIPT = `
local n = redis.call('HINCRBY', KEYS[1], 'n', 1)
local free, base, max, now, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
if n > free then
  local untilMs = now + math.min(base * 2 ^ (n - free - 1), max)
  local prev = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
  if untilMs > prev then redis.call('HSET', KEYS[1], 'until', string.format('%d', untilMs)) end
end
redis.call('PEXPIRE', KEYS[1], ttl)
return n`;

/** Counts shared by every process on the Redis: hashes `{n, until}` that expire on their own. */
export class RedisThrottleStore implements ThrottleStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
  ) {}

  // Names and addresses are client input: the key holds their digest.
  private key(k: string): string {
    return this.keys.loginFailures(sha256Hex(k).slice(0, 32));
  }

  async read(keys: readonly string[]): Promise<KeyState[]> {
    const rows = await Promise.all(keys.map((k) => this.redis.hmGet(this.key(k), ['n', 'until'])));
    return rows.map(([n, until]) => ({ failures: Number(n ?? 0), closedUntil: Number(until ?? 0) }));
  }

  async fail(key: string, policy: ThrottlePolicy, now: number): Promise<void> {
    const args = [policy.freeFailures, policy.baseDelayMs, policy.maxDelayMs, now, policy.forgetAfterMs].map(String);
    await this.redis.eval(FAIL_SCRIPT, { keys: [this.key(key)], arguments: args });
  }

  async clear(key: string): Promise<void> {
    await this.redis.del(this.key(key));
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

  read(keys: readonly string[]): Promise<KeyState[]> {
    return this.run((s) => s.read(keys));
  }

  fail(key: string, policy: ThrottlePolicy, now: number): Promise<void> {
    return this.run((s) => s.fail(key, policy, now));
  }

  clear(key: string): Promise<void> {
    return this.run((s) => s.clear(key));
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

export type ThrottleVerdict = { readonly open: true; readonly failures: number } | { readonly open: false; readonly retryAfterMs: number };

/** The two keys a login attempt is counted under. */
const userKey = (username: string, address: string): string => `user ${address} ${username}`;
const addressKey = (address: string): string => `address ${address}`;

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

interface Lane {
  active: number;
  /** Failures of the key as last read. */
  failures: number;
  waiters: Array<() => void>;
}

export class LoginThrottle {
  private readonly clock: () => number;
  private readonly userPolicy: ThrottlePolicy;
  private readonly addressPolicy: ThrottlePolicy;
  private readonly lanes = new Map<string, Lane>();

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
   * user at that address (or the address) is closed, else checked and
   * counted. In this process, checks of one user at one address run at most
   * as many at a time as it has free failures left (at least one), so a
   * burst of parallel guesses is counted as it goes instead of passing the
   * check all at once before the first failure is recorded. A client's
   * parallel good logins (no failures) run five at a time.
   */
  async attempt(username: string, origin: LoginOrigin, verify: () => Promise<boolean>): Promise<AttemptOutcome> {
    const key = userKey(username, origin.address);
    const lane = await this.enter(key);
    try {
      const verdict = await this.check(username, origin);
      if (!verdict.open) return { heldBackMs: verdict.retryAfterMs };
      lane.failures = Math.max(lane.failures, verdict.failures);
      const ok = await verify();
      if (ok) await this.succeeded(username, origin, verdict.failures);
      else await this.failed(username, origin);
      // Parallel checks all read the count from before any of them failed: count on from the lane's.
      lane.failures = ok ? 0 : Math.max(lane.failures, verdict.failures) + 1;
      return { ok };
    } finally {
      this.leave(key, lane);
    }
  }

  private async enter(key: string): Promise<Lane> {
    let lane = this.lanes.get(key);
    if (lane === undefined) {
      lane = { active: 0, failures: 0, waiters: [] };
      this.lanes.set(key, lane);
    }
    while (lane.active >= Math.max(1, this.userPolicy.freeFailures - lane.failures)) {
      await new Promise<void>((resolve) => lane!.waiters.push(resolve));
    }
    lane.active++;
    return lane;
  }

  private leave(key: string, lane: Lane): void {
    lane.active--;
    // Every waiter looks again: the free slots depend on the failures just recorded.
    const woken = lane.waiters.splice(0);
    for (const wake of woken) wake();
    // Kept while woken waiters are about to enter it, so a key never has two lanes.
    if (lane.active === 0 && woken.length === 0) this.lanes.delete(key);
  }

  /** Whether a login of `username` from `origin` may be checked now. */
  async check(username: string, origin: LoginOrigin): Promise<ThrottleVerdict> {
    const keys = origin.sharedAddress ? [userKey(username, origin.address)] : [userKey(username, origin.address), addressKey(origin.address)];
    const states = await this.store.read(keys);
    const now = this.clock();
    const closedUntil = Math.max(...states.map((s) => s.closedUntil));
    if (closedUntil > now) return { open: false, retryAfterMs: closedUntil - now };
    return { open: true, failures: states[0]?.failures ?? 0 };
  }

  async failed(username: string, origin: LoginOrigin): Promise<void> {
    const now = this.clock();
    await this.store.fail(userKey(username, origin.address), this.userPolicy, now);
    if (!origin.sharedAddress) await this.store.fail(addressKey(origin.address), this.addressPolicy, now);
  }

  /** After a good password; `failures` as check() answered, so the common case writes nothing. */
  async succeeded(username: string, origin: LoginOrigin, failures: number): Promise<void> {
    if (failures > 0) await this.store.clear(userKey(username, origin.address));
  }
}

/** The throttle of a process: Redis, with this process's memory as fallback. */
export function loginThrottle(redis: RedisClient, keys: RedisKeys, logger: Logger): LoginThrottle {
  return new LoginThrottle(new FallbackThrottleStore(new RedisThrottleStore(redis, keys), new MemoryThrottleStore(), logger));
}
