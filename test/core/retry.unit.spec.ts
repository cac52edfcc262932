import { expect } from 'chai';
import { Backoff, backoffDelay, retry, sleep, type RetryOptions } from '../../src/core/retry';

/** A clock that moves only when the retry sleeps; records each wait. */
function fakeTime(): { now: () => number; sleep: (ms: number) => Promise<void>; waits: number[] } {
  let t = 0;
  const waits: number[] = [];
  return {
    now: () => t,
    sleep: async (ms) => {
      waits.push(ms);
      t += ms;
    },
    waits,
  };
}

/** Fails `failures` times (with errors naming the attempt), then answers 'done'. */
function flaky(failures: number): { fn: (n: number) => Promise<string>; calls: () => number } {
  let calls = 0;
  return {
    fn: async (n) => {
      calls++;
      if (n <= failures) throw new Error(`failure ${n}`);
      return 'done';
    },
    calls: () => calls,
  };
}

const rejection = (p: Promise<unknown>): Promise<Error> => p.then(() => expect.fail('should have failed'), (e: unknown) => e as Error);

describe('core/retry', () => {
  describe('backoffDelay', () => {
    it('doubles from initialMs and stops at maxMs', () => {
      const policy = { initialMs: 100, maxMs: 1000 };
      expect([0, 1, 2, 3, 4, 5].map((a) => backoffDelay(policy, a))).to.deep.equal([100, 200, 400, 800, 1000, 1000]);
    });

    it('grows by the given factor; factor 1 is a fixed delay', () => {
      expect([0, 1, 2].map((a) => backoffDelay({ initialMs: 10, maxMs: 1000, factor: 3 }, a))).to.deep.equal([10, 30, 90]);
      expect([0, 1, 7].map((a) => backoffDelay({ initialMs: 500, maxMs: 500, factor: 1 }, a))).to.deep.equal([500, 500, 500]);
    });

    it('draws a jittered delay between (1 - jitter) and the whole of it', () => {
      const policy = { initialMs: 1000, maxMs: 8000, jitter: 0.5 };
      expect(backoffDelay(policy, 2, () => 0)).to.equal(2000);
      expect(backoffDelay(policy, 2, () => 1)).to.equal(4000);
      expect(backoffDelay(policy, 2, () => 0.5)).to.equal(3000);
      expect(backoffDelay({ initialMs: 1000, maxMs: 1000, jitter: 1 }, 0, () => 0)).to.equal(0);
    });

    it('stays a finite number for huge attempt counts, also from 0 ms', () => {
      expect(backoffDelay({ initialMs: 100, maxMs: 30_000 }, 10_000)).to.equal(30_000);
      expect(backoffDelay({ initialMs: 0, maxMs: 0 }, 10_000)).to.equal(0);
    });
  });

  describe('Backoff', () => {
    it('steps one failure further per next() and starts over after reset()', () => {
      const b = new Backoff({ initialMs: 50, maxMs: 300 });
      expect([b.next(), b.next(), b.next(), b.next()]).to.deep.equal([50, 100, 200, 300]);
      expect(b.attempts).to.equal(4);
      b.reset();
      expect(b.attempts).to.equal(0);
      expect(b.next()).to.equal(50);
    });
  });

  describe('retry', () => {
    const base = (time: ReturnType<typeof fakeTime>): RetryOptions => ({ backoff: { initialMs: 100, maxMs: 1000 }, sleep: time.sleep, now: time.now });

    it('tries again after each failure on the back-off schedule until it succeeds', async () => {
      const time = fakeTime();
      const f = flaky(3);
      const told: Array<{ message: string; attempt: number; delayMs: number }> = [];
      const result = await retry(f.fn, { ...base(time), onRetry: (err, next) => void told.push({ message: (err as Error).message, ...next }) });
      expect(result).to.equal('done');
      expect(f.calls()).to.equal(4);
      expect(time.waits).to.deep.equal([100, 200, 400]);
      expect(told).to.deep.equal([
        { message: 'failure 1', attempt: 1, delayMs: 100 },
        { message: 'failure 2', attempt: 2, delayMs: 200 },
        { message: 'failure 3', attempt: 3, delayMs: 400 },
      ]);
    });

    it('gives up after maxAttempts with the last failure', async () => {
      const time = fakeTime();
      const f = flaky(Infinity);
      const err = await rejection(retry(f.fn, { ...base(time), maxAttempts: 3 }));
      expect(err.message).to.equal('failure 3');
      expect(f.calls()).to.equal(3);
      expect(time.waits).to.deep.equal([100, 200]);
    });

    it('lets a failure that is not retryable escape at once', async () => {
      const time = fakeTime();
      const f = flaky(Infinity);
      const err = await rejection(retry(f.fn, { ...base(time), retryable: (e) => !(e as Error).message.endsWith(' 2') }));
      expect(err.message).to.equal('failure 2');
      expect(f.calls()).to.equal(2);
      expect(time.waits).to.deep.equal([100]);
    });

    it('cuts the last wait to maxElapsedMs and starts no attempt after it', async () => {
      const time = fakeTime();
      const f = flaky(Infinity);
      const err = await rejection(retry(f.fn, { ...base(time), maxElapsedMs: 1000 }));
      // 100 + 200 + 400 = 700; then 300 of the 800 are left: the fifth attempt at 1000 ms is the last.
      expect(time.waits).to.deep.equal([100, 200, 400, 300]);
      expect(f.calls()).to.equal(5);
      expect(err.message).to.equal('failure 5');
    });

    it('makes no further attempt once the signal is aborted, and says nothing about a retry', async () => {
      const time = fakeTime();
      const stop = new AbortController();
      let told = 0;
      const err = await rejection(
        retry(
          async (n) => {
            if (n === 2) stop.abort();
            throw new Error(`failure ${n}`);
          },
          { ...base(time), signal: stop.signal, onRetry: () => void told++ },
        ),
      );
      expect(err.message).to.equal('failure 2');
      expect(told).to.equal(1);
      expect(time.waits).to.deep.equal([100]);
    });

    it('ends a wait in progress when the signal aborts, with the failure in hand', async () => {
      const stop = new AbortController();
      const f = flaky(Infinity);
      // The real sleep of a minute: only the abort can end this test in time.
      const pending = retry(f.fn, { backoff: { initialMs: 60_000, maxMs: 60_000 }, signal: stop.signal, onRetry: () => void setImmediate(() => stop.abort()) });
      const err = await rejection(pending);
      expect(err.message).to.equal('failure 1');
      expect(f.calls()).to.equal(1);
    });

    it('waits for onRetry (e.g. closing what the attempt opened) before sleeping', async () => {
      const order: string[] = [];
      const time = fakeTime();
      await retry(flaky(1).fn, {
        ...base(time),
        sleep: async (ms) => void order.push(`sleep ${ms}`),
        onRetry: async () => {
          await Promise.resolve();
          order.push('cleaned up');
        },
      });
      expect(order).to.deep.equal(['cleaned up', 'sleep 100']);
    });
  });

  describe('sleep', () => {
    it('resolves at once for an aborted signal or no time', async () => {
      const stop = new AbortController();
      stop.abort();
      let done = 0;
      await Promise.all([sleep(60_000, stop.signal), sleep(0)].map((p) => p.then(() => done++)));
      expect(done).to.equal(2);
    });
  });
});
