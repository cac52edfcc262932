// Dependency health for /healthz: each check runs in parallel under its own
// time limit, so one hung dependency cannot make the probe itself hang (load
// balancers treat a slow probe as a dead instance anyway). A time limit ends
// the wait, not the work: what the probe started goes on, so work that many
// callers ask for in a loop runs once for all of them (sharedWhileRunning).

export type HealthCheck = () => Promise<void>;

export interface DependencyHealth {
  readonly status: 'ok' | 'down';
  readonly latencyMs: number;
  readonly error?: string;
}

export type HealthReport<K extends string = string> = { readonly status: 'ok' | 'down' } & {
  readonly [name in K]: DependencyHealth;
};

export class TimeoutError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} did not answer within ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

/** Rejects with a TimeoutError if `promise` has not settled after `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(what, ms)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * `work`, run once for every caller that asks while it runs: they all get
 * the answer of the run in flight, and the first caller after it settled
 * starts the next one. A caller whose wait a time limit cut short and who
 * asks again joins the run it left instead of adding one beside it, so
 * however many callers probe in a loop, one run at a time loads what it
 * reads. A failure is shared the same way and not remembered.
 */
export function sharedWhileRunning<T>(work: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () =>
    (running ??= work().finally(() => {
      running = undefined;
    }));
}

async function runCheck(name: string, check: HealthCheck, timeoutMs: number): Promise<DependencyHealth> {
  const started = performance.now();
  const latency = (): number => Math.round(performance.now() - started);
  try {
    await withTimeout(check(), timeoutMs, name);
    return { status: 'ok', latencyMs: latency() };
  } catch (err) {
    return { status: 'down', latencyMs: latency(), error: err instanceof Error ? err.message : String(err) };
  }
}

export async function checkHealth<K extends string>(
  checks: Readonly<Record<K, HealthCheck>>,
  timeoutMs: number,
): Promise<HealthReport<K>> {
  const names = Object.keys(checks) as K[];
  const results = await Promise.all(names.map((n) => runCheck(n, checks[n], timeoutMs)));
  const byName = Object.fromEntries(names.map((n, i) => [n, results[i]])) as Record<K, DependencyHealth>;
  const status = results.every((r) => r.status === 'ok') ? 'ok' : 'down';
  return { status, ...byName } as HealthReport<K>;
}
