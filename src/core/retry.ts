// The one way to wait before trying again. Three shapes of the same policy:
// - backoffDelay: the pure schedule, for libraries that ask for a delay per
//   attempt (node-redis reconnectStrategy, amqplib recovery);
// - Backoff: the schedule with its attempt count, for long-lived reconnect
//   loops that start over once a connection was up (readers, subscriptions);
// - retry: runs a function until it succeeds, with a deadline, an attempt
//   limit, a test of which failures are worth another try, and an abort.
// Sleep, clock and randomness are injectable so tests run without waiting.

export interface BackoffPolicy {
  /** Delay after the first failure, in ms. */
  readonly initialMs: number;
  /** Longest delay, in ms. */
  readonly maxMs: number;
  /** Growth per failure; default 2 (doubling). 1 gives a fixed delay. */
  readonly factor?: number;
  /**
   * Spread, 0 to 1: each delay is drawn in [(1 - jitter) x, x], so many
   * clients failing together do not retry in step. Default 0 (none).
   */
  readonly jitter?: number;
}

/** The delay before retry `attempt` (0 after the first failure): initialMs x factor^attempt, at most maxMs, jittered. */
export function backoffDelay(policy: BackoffPolicy, attempt: number, random: () => number = Math.random): number {
  // Capped exponent: past it the ceiling is maxMs anyway, and 0 x Infinity would be NaN.
  const ceiling = Math.min(policy.maxMs, policy.initialMs * (policy.factor ?? 2) ** Math.min(Math.max(0, attempt), 64));
  const jitter = policy.jitter ?? 0;
  return Math.round(ceiling * (1 - jitter + jitter * random()));
}

/** A back-off in progress: each `next()` is one failure further; `reset()` after a success. */
export class Backoff {
  private failures = 0;

  constructor(
    readonly policy: BackoffPolicy,
    private readonly random: () => number = Math.random,
  ) {}

  /** Failures since the last reset. */
  get attempts(): number {
    return this.failures;
  }

  /** The delay to wait after one more failure. */
  next(): number {
    return backoffDelay(this.policy, this.failures++, this.random);
  }

  reset(): void {
    this.failures = 0;
  }
}

/** Resolves after `ms`, or at once when `signal` aborts (never rejects: the caller looks at the signal). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export interface RetryOptions {
  readonly backoff: BackoffPolicy;
  /** Whether a failure is worth another attempt; default every failure. Others escape at once. */
  readonly retryable?: (err: unknown) => boolean;
  /** Attempts in all, the first included; default no limit. */
  readonly maxAttempts?: number;
  /** No attempt starts later than this after the first (the last wait is cut to it); default no limit. */
  readonly maxElapsedMs?: number;
  /** Stops retrying: the failure in hand escapes, also from the middle of a wait. */
  readonly signal?: AbortSignal;
  /** Told before each wait (log it, close what the attempt left open). */
  readonly onRetry?: (err: unknown, next: { attempt: number; delayMs: number }) => void | Promise<void>;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly now?: () => number;
  readonly random?: () => number;
}

/**
 * Calls `attempt(n)` (n from 1) until it resolves. A failure that is not
 * retryable, the last allowed attempt's failure, a failure past the
 * deadline, or an abort rejects with that failure.
 */
export async function retry<T>(attempt: (n: number) => Promise<T>, opts: RetryOptions): Promise<T> {
  const now = opts.now ?? Date.now;
  const wait = opts.sleep ?? sleep;
  const deadline = opts.maxElapsedMs === undefined ? Infinity : now() + opts.maxElapsedMs;
  const backoff = new Backoff(opts.backoff, opts.random);
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (err) {
      const left = deadline - now();
      const last = (opts.maxAttempts !== undefined && n >= opts.maxAttempts) || left <= 0;
      if (last || opts.signal?.aborted || (opts.retryable !== undefined && !opts.retryable(err))) throw err;
      const delayMs = Math.min(backoff.next(), left);
      await opts.onRetry?.(err, { attempt: n, delayMs });
      await wait(delayMs, opts.signal);
      if (opts.signal?.aborted) throw err;
    }
  }
}
