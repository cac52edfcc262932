// Failed-login throttling: free failures, then doubling closures up to a
// bound, per user at an address and per address; another address is never
// held back by someone else's failures; a success clears the user's count;
// Redis failing falls back to this process's memory.
import { expect } from 'chai';
import {
  ADDRESS,
  delayAfter,
  FallbackThrottleStore,
  LoginThrottle,
  MemoryThrottleStore,
  USER_AT_ADDRESS,
  type KeyState,
  type ThrottleStore,
} from '../../src/auth/throttle';
import type { Logger } from '../../src/core/logger';
import { sleep } from '../support/wait';

const A = { address: '10.0.0.1' };
const B = { address: '10.0.0.2' };

function setup() {
  let now = 1_700_000_000_000;
  const clock = (): number => now;
  const throttle = new LoginThrottle(new MemoryThrottleStore(clock), { clock });
  const advance = (ms: number): void => {
    now += ms;
  };
  const failTimes = async (n: number, user: string, origin = A): Promise<void> => {
    for (let i = 0; i < n; i++) await throttle.failed(user, origin);
  };
  return { throttle, advance, failTimes };
}

describe('auth/throttle', () => {
  it('delays: none for the free failures, then doubling from 1 s, bounded at 5 minutes', () => {
    const delays = [1, 5, 6, 7, 8, 14, 15, 100].map((n) => delayAfter(n, USER_AT_ADDRESS));
    expect(delays).to.deep.equal([0, 0, 1000, 2000, 4000, 256_000, 300_000, 300_000]);
    expect(delayAfter(30, ADDRESS)).to.equal(0);
    expect(delayAfter(31, ADDRESS)).to.equal(1000);
  });

  it('five failures are free; the sixth closes the user at that address for 1 s, the next for 2 s', async () => {
    const { throttle, advance, failTimes } = setup();
    await failTimes(5, 'admin');
    expect(await throttle.check('admin', A)).to.deep.equal({ open: true, failures: 5 });
    await failTimes(1, 'admin');
    expect(await throttle.check('admin', A)).to.deep.equal({ open: false, retryAfterMs: 1000 });
    advance(999);
    expect((await throttle.check('admin', A)).open).to.equal(false);
    advance(1);
    expect((await throttle.check('admin', A)).open).to.equal(true);
    await failTimes(1, 'admin');
    expect(await throttle.check('admin', A)).to.deep.equal({ open: false, retryAfterMs: 2000 });
  });

  it('never holds the user back at another address: failures elsewhere cannot lock the admin out', async () => {
    const { throttle, failTimes } = setup();
    await failTimes(50, 'admin', A);
    expect((await throttle.check('admin', A)).open).to.equal(false);
    expect(await throttle.check('admin', B)).to.deep.equal({ open: true, failures: 0 });
  });

  it('an address failing for many user names is closed for every name, other addresses are not', async () => {
    const { throttle } = setup();
    for (let i = 0; i < 31; i++) await throttle.failed(`user${i}`, A);
    const verdict = await throttle.check('someone-else', A);
    expect(verdict).to.deep.equal({ open: false, retryAfterMs: 1000 });
    expect((await throttle.check('someone-else', B)).open).to.equal(true);
  });

  it('a shared address (the broker) is not closed on its own, only per user', async () => {
    const { throttle } = setup();
    const broker = { address: 'broker-auth 127.0.0.1', sharedAddress: true };
    for (let i = 0; i < 40; i++) await throttle.failed(`user${i}`, broker);
    expect((await throttle.check('reader', broker)).open).to.equal(true);
  });

  it('a success clears the count of the user at that address', async () => {
    const { throttle, failTimes } = setup();
    await failTimes(4, 'alice');
    const verdict = await throttle.check('alice', A);
    expect(verdict).to.deep.equal({ open: true, failures: 4 });
    await throttle.succeeded('alice', A, 4);
    await failTimes(5, 'alice');
    expect((await throttle.check('alice', A)).open).to.equal(true);
  });

  it('a burst of parallel guesses is counted as it goes: 6 passwords checked out of 50, the rest held back', async () => {
    const { throttle } = setup();
    let checked = 0;
    const guess = async (): Promise<boolean> => {
      checked++;
      await sleep(5);
      return false;
    };
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => throttle.attempt('admin', A, guess)));
    expect(checked).to.equal(6);
    expect(outcomes.filter((o) => 'heldBackMs' in o)).to.have.length(44);
    // Good logins of a client in parallel all pass (five at a time), and none is counted.
    const good = await Promise.all(Array.from({ length: 20 }, () => throttle.attempt('alice', A, async () => true)));
    expect(good.every((o) => 'ok' in o && o.ok)).to.equal(true);
    expect(await throttle.check('alice', B)).to.deep.equal({ open: true, failures: 0 });
  });

  it('failures are forgotten 30 minutes after the last one', async () => {
    const { throttle, advance, failTimes } = setup();
    await failTimes(10, 'admin');
    advance(30 * 60_000);
    expect(await throttle.check('admin', A)).to.deep.equal({ open: true, failures: 0 });
  });

  it('when the shared store fails, counts go on in this process (logged once) and it goes back when the store answers', async () => {
    let down = true;
    const shared = new MemoryThrottleStore();
    const flaky: ThrottleStore = {
      read: (keys) => (down ? Promise.reject(new Error('redis down')) : shared.read(keys)),
      fail: (key, policy, now) => (down ? Promise.reject(new Error('redis down')) : shared.fail(key, policy, now)),
      clear: (key) => (down ? Promise.reject(new Error('redis down')) : shared.clear(key)),
    };
    const hung: ThrottleStore = { read: () => new Promise<KeyState[]>(() => undefined), fail: () => new Promise(() => undefined), clear: () => new Promise(() => undefined) };
    const lines: Array<[string, string]> = [];
    const logger = {
      debug: () => undefined,
      info: (m: string) => lines.push(['info', m]),
      warn: (m: string) => lines.push(['warn', m]),
      error: () => undefined,
      child: () => logger,
    } as unknown as Logger;
    let now = 0;
    const throttle = new LoginThrottle(new FallbackThrottleStore(flaky, new MemoryThrottleStore(), logger, 500, 5000, () => now));
    for (let i = 0; i < 6; i++) await throttle.failed('admin', A);
    expect((await throttle.check('admin', A)).open).to.equal(false);
    expect(lines.filter(([level]) => level === 'warn')).to.have.length(1);
    down = false;
    // Redis is tried again only after 5 s: meanwhile the memory counts hold.
    expect((await throttle.check('admin', A)).open).to.equal(false);
    now += 5000;
    expect((await throttle.check('admin', A)).open).to.equal(true); // the shared store saw nothing
    expect(lines.at(-1)).to.deep.equal(['info', 'login throttle: counting in Redis again']);

    // A store that does not answer at all counts as failed, within the timeout.
    const slow = new LoginThrottle(new FallbackThrottleStore(hung, new MemoryThrottleStore(), logger, 50));
    for (let i = 0; i < 6; i++) await slow.failed('admin', A);
    expect((await slow.check('admin', A)).open).to.equal(false);
  });
});
