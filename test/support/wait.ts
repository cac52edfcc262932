// The one way tests wait. A test never sleeps for "long enough": it waits for
// the thing it needs (a status, a log line, a count) with a deadline, and
// when the deadline passes the failure names what was awaited and the last
// value or error seen, so a slow machine shows up as a clear message instead
// of a flaky assertion. `sleep` is left for the few places that must let real
// time pass (a window that has to elapse, a quiet period that proves nothing
// happens); prefer a ManualClock (./clock) where the code takes one.

import { setTimeout as sleep } from 'node:timers/promises';

export { sleep };

export interface WaitOptions {
  /** Give up after this long (default 15 s). */
  readonly timeoutMs?: number;
  /** Pause between two probes (default 50 ms). */
  readonly intervalMs?: number;
  /** Treat a probe that throws as "not yet" (default: the error fails the wait at once). */
  readonly retryErrors?: boolean;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_INTERVAL_MS = 50;

/** Up to 500 characters of `v` for a failure message. */
export function show(v: unknown): string {
  let s: string;
  try {
    s = v instanceof Error ? `${v.name}: ${v.message}` : (JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x)) ?? String(v));
  } catch {
    s = String(v);
  }
  return s.length > 500 ? `${s.slice(0, 500)}…` : s;
}

/**
 * Reads with `read` until `ok` holds for the value, and returns that value.
 * On time-out: "timed out after N ms waiting for <what>; last: <value>".
 */
export async function waitForValue<T>(what: string, read: () => T | Promise<T>, ok: (v: T) => boolean, opts: WaitOptions = {}): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  let last: { value: T } | { error: unknown } | undefined;
  for (;;) {
    try {
      const value = await read();
      if (ok(value)) return value;
      last = { value };
    } catch (error) {
      if (opts.retryErrors !== true) throw error;
      last = { error };
    }
    if (Date.now() >= deadline) {
      const seen = last === undefined ? 'nothing' : 'error' in last ? `error ${show(last.error)}` : show(last.value);
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last: ${seen}`);
    }
    await sleep(Math.min(opts.intervalMs ?? DEFAULT_INTERVAL_MS, Math.max(0, deadline - Date.now())));
  }
}

/**
 * Probes until `probe` answers something other than undefined, null or false,
 * and returns it: `await waitFor('the job to run', async () => (await show(id)).status === 'RUNNING')`.
 */
export async function waitFor<T>(what: string, probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, opts: WaitOptions = {}): Promise<T> {
  const v = await waitForValue(what, probe, (x) => x !== undefined && x !== null && x !== false, opts);
  return v as T;
}

export interface HttpAnswer {
  readonly status: number;
  readonly body: unknown;
}

/**
 * GETs `url` until it answers 200 and `ok(body)` holds (connection errors and
 * other statuses count as "not yet"); returns the JSON (or text) body.
 */
export async function waitForHttp<B = unknown>(what: string, url: string, ok: (body: B) => boolean = () => true, opts: WaitOptions = {}): Promise<B> {
  const get = async (): Promise<HttpAnswer> => {
    const res = await fetch(url);
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: keep the text.
    }
    return { status: res.status, body };
  };
  const answer = await waitForValue(`${what} (GET ${url})`, get, (a) => a.status === 200 && ok(a.body as B), { retryErrors: true, ...opts });
  return answer.body as B;
}

/** Resolves with the first `event` of `emitter`, or fails naming `what` after the time-out. */
export function waitForEvent<T = unknown>(what: string, emitter: NodeJS.EventEmitter, event: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<T> {
  return withTimeout(new Promise<T>((resolve) => emitter.once(event, resolve)), timeoutMs, what);
}

/** `p`, or a failure naming `what` if it has not settled within `ms`. */
export async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    if (timer) clearTimeout(timer);
  }
}
