// Test helpers for the simulator: a fake clock and a scripted transport.
import type { Clock } from '../../src/simulator/clock';
import type { HttpAnswer, Transport } from '../../src/simulator/http';

export const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

export class FakeClock implements Clock {
  t = Date.parse('2026-11-23T10:00:00.000Z');
  private waiters: Array<{ at: number; resolve: () => void }> = [];

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (ms <= 0 || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const onAbort = (): void => {
        this.waiters = this.waiters.filter((x) => x !== w);
        resolve();
      };
      const w = {
        at: this.t + ms,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      this.waiters.push(w);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Moves time forward, waking every sleeper on the way in order. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      await flush();
      const due = this.waiters.filter((w) => w.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.waiters = this.waiters.filter((w) => w !== due);
      this.t = Math.max(this.t, due.at);
      due.resolve();
    }
    this.t = end;
    await flush();
  }
}

export interface Call {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  readonly at: number;
}

/** A transport answering from a handler, recording every call (path without the base URL). */
export function recordingTransport(clock: Clock, base: string, handler: (c: Call) => HttpAnswer): { transport: Transport; calls: Call[] } {
  const calls: Call[] = [];
  const transport: Transport = async (method, url, _headers, body) => {
    const call = { method, path: url.slice(base.length), body: body === undefined ? undefined : JSON.parse(body), at: clock.now() };
    calls.push(call);
    return handler(call);
  };
  return { transport, calls };
}
