// What the gateway last read from Redis for each reader (its assignment, the
// digest of its secret), kept in the process so readers go on reporting while
// Redis is away or a read model is being rebuilt. Only answers that Redis
// could not give are served from here; any other error (a 401, a 404) stands.
// A report accepted on a remembered assignment is still only a report: the
// item engine decides from the log whether it counts (the job as of the
// report's position), so a stale assignment never places what the job would
// not have (docs/agent-protocol.md, "While Redis is away").
import { ApiError } from '../core/http/errors';

/** Redis cannot answer now: it is not reachable (the client's own errors) or a read model is not ready (the gate's 503). */
export function isRedisOutage(err: unknown): boolean {
  if (err instanceof ApiError) return err.status === 503;
  return err instanceof Error;
}

export class LastKnown<T> {
  private readonly values = new Map<string, T>();

  /** `read()` for `key`, remembered; when Redis cannot answer, the last value read for `key`, if any. */
  async read(key: string, read: () => Promise<T>, onFallback?: (err: unknown) => void): Promise<T> {
    try {
      const value = await read();
      this.values.set(key, value);
      return value;
    } catch (err) {
      if (!this.values.has(key) || !isRedisOutage(err)) throw err;
      onFallback?.(err);
      return this.values.get(key) as T;
    }
  }
}

/** Runs a Redis write that only keeps statistics or a dedup hint: while Redis is away it is skipped (the log has the truth). */
export async function bestEffort(write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (err) {
    if (!isRedisOutage(err)) throw err;
  }
}
