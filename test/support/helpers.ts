// Small async helpers for the event store contract tests: collecting reads,
// recording subscriptions with time-outs, asserting on rejections.
import { expect } from 'chai';
import {
  BACKWARDS,
  END,
  START,
  jsonEvent,
  type EventData,
  type EventStoreDBClient,
  type JSONEventType,
  type Position,
  type ReadableSubscription,
  type CatchupSubscription,
} from '@eventstore/db-client';

import { withTimeout } from './wait';

/** Reads a finite stream (readStream/readAll) to the end. */
export async function collect<T>(iterable: AsyncIterable<T>, timeoutMs = 20_000): Promise<T[]> {
  const run = async (): Promise<T[]> => {
    const out: T[] = [];
    for await (const item of iterable) out.push(item);
    return out;
  };
  return withTimeout(run(), timeoutMs, 'a read to complete');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ErrorCtor<E> = abstract new (...args: any[]) => E;

/** Awaits the promise, asserts it rejects with an instance of `ctor`, returns the error. */
export async function expectRejection<E extends Error>(
  action: Promise<unknown> | (() => Promise<unknown>),
  ctor: ErrorCtor<E>,
): Promise<E> {
  let result: unknown;
  try {
    result = await (typeof action === 'function' ? action() : action);
  } catch (err) {
    if (!(err instanceof ctor)) {
      const detail = err instanceof Error ? `${err.constructor.name}: ${err.message}` : String(err);
      expect.fail(`expected rejection with ${ctor.name}, got ${detail}`);
    }
    return err;
  }
  return expect.fail(`expected rejection with ${ctor.name}, but it resolved with ${describe(result)}`);
}

function describe(v: unknown): string {
  try {
    return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x.toString()}n` : x));
  } catch {
    return String(v);
  }
}

export function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

/**
 * The position of the newest event in $all, or START when $all is empty.
 * Subscribing to $all from it (exclusive) sees exactly what is appended next,
 * without scanning a shared server's whole log.
 */
export async function lastAllPosition(client: EventStoreDBClient): Promise<Position | typeof START> {
  const last = await collect(client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 }));
  const pos = last[0]?.event?.position;
  return pos ?? START;
}

export type TestEvent = JSONEventType<string, { n: number; tag: string }>;

/** `count` JSON events with data {n, tag}; n counts from `from`. */
export function testEvents(count: number, opts: { type?: string; tag?: string; from?: number } = {}): EventData<TestEvent>[] {
  const out: EventData<TestEvent>[] = [];
  for (let i = 0; i < count; i++) {
    out.push(
      jsonEvent<TestEvent>({
        type: opts.type ?? 'TestEvent',
        data: { n: (opts.from ?? 0) + i, tag: opts.tag ?? 'contract' },
      }),
    );
  }
  return out;
}

type AnySubscription<E> = ReadableSubscription<E> & CatchupSubscription;

/**
 * Records everything a subscription emits so a test can wait for a condition
 * with a time-out. Always call stop() (in a finally or afterEach).
 */
export class SubscriptionRecorder<E> {
  readonly events: E[] = [];
  readonly errors: Error[] = [];
  confirmed = false;
  caughtUp = false;
  /** events.length when 'caughtUp' was emitted. */
  eventsAtCaughtUp: number | undefined;
  ended = false;
  private waiters: Array<() => void> = [];
  private stopped = false;

  constructor(readonly subscription: AnySubscription<E>) {
    subscription.on('data', (e: E) => {
      this.events.push(e);
      this.notify();
    });
    subscription.on('confirmation', () => {
      this.confirmed = true;
      this.notify();
    });
    subscription.on('caughtUp', () => {
      if (this.caughtUp) return;
      // The Transform may still hold events pushed just before the marker;
      // let them flow out before taking the count.
      setImmediate(() => {
        this.eventsAtCaughtUp = this.events.length;
        this.caughtUp = true;
        this.notify();
      });
    });
    subscription.on('error', (err: Error) => {
      this.errors.push(err);
      this.notify();
    });
    subscription.on('end', () => {
      this.ended = true;
      this.notify();
    });
  }

  private notify(): void {
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w();
  }

  /** Resolves once `pred` holds; rejects on subscription error or time-out. */
  async waitUntil(pred: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.errors.length > 0) {
        const err = this.errors[0];
        throw new Error(`subscription failed while waiting for ${what}: ${err?.constructor.name}: ${err?.message}`);
      }
      if (pred()) return;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (got ${this.events.length} events)`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 250));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  async waitForCount(n: number, timeoutMs = 15_000, filter?: (e: E) => boolean): Promise<E[]> {
    const matching = (): E[] => (filter ? this.events.filter(filter) : this.events);
    await this.waitUntil(() => matching().length >= n, timeoutMs, `${n} events`);
    return matching().slice(0, n);
  }

  async waitForConfirmation(timeoutMs = 10_000): Promise<void> {
    await this.waitUntil(() => this.confirmed, timeoutMs, "the 'confirmation' event");
  }

  async waitForCaughtUp(timeoutMs = 10_000): Promise<void> {
    await this.waitUntil(() => this.caughtUp, timeoutMs, "the 'caughtUp' event");
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.subscription.unsubscribe();
  }
}
