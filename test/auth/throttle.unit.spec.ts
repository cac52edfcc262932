// Failed-login throttling: free failures, then doubling closures up to a
// bound, per user at an address and per address; another address is never
// held back by someone else's failures; a success clears the user's count.
// A guess counts from its start: parallel guesses get exactly the checks
// guesses one after the other get, and a hold's end lets one through. Redis
// failing falls back to this process's memory.
import { expect } from 'chai';
import {
  ADDRESS,
  delayAfter,
  FallbackThrottleStore,
  LoginThrottle,
  MemoryThrottleStore,
  USER_AT_ADDRESS,
  type AttemptOutcome,
  type ThrottleStore,
} from '../../src/auth/throttle';
import { IN_FLIGHT_LIMIT_MS } from '../../src/auth/throttle-store';
import type { Logger } from '../../src/core/logger';
import { sleep } from '../support/wait';

const A = { address: '10.0.0.1' };
const B = { address: '10.0.0.2' };
const BROKER = { address: 'broker-auth 127.0.0.1', sharedAddress: true };

const held = (o: AttemptOutcome): number | undefined => ('heldBackMs' in o ? o.heldBackMs : undefined);

function setup(store: ThrottleStore = new MemoryThrottleStore()) {
  let now = 1_700_000_000_000;
  const clock = (): number => now;
  const throttle = new LoginThrottle(store, { clock });
  let checks = 0;
  /** A login with `password` ('right' is the right one); checks are counted. */
  const login = (user: string, origin = A, password = 'wrong'): Promise<AttemptOutcome> =>
    throttle.attempt(user, origin, async () => {
      checks++;
      await sleep(2); // parallel logins overlap, as real checks do
      return password === 'right';
    });
  const failTimes = async (n: number, user: string, origin = A): Promise<void> => {
    for (let i = 0; i < n; i++) expect(await login(user, origin), `failure ${i + 1}`).to.deep.equal({ ok: false });
  };
  const parallel = (n: number, attempt: (i: number) => Promise<AttemptOutcome>): Promise<AttemptOutcome[]> => Promise.all(Array.from({ length: n }, (_, i) => attempt(i)));
  return {
    throttle,
    login,
    failTimes,
    parallel,
    advance: (ms: number): void => {
      now += ms;
    },
    checked: (): number => checks,
  };
}

describe('auth/throttle', () => {
  it('delays: none for the free failures, then doubling from 1 s, bounded at 5 minutes', () => {
    const delays = [1, 5, 6, 7, 8, 14, 15, 100].map((n) => delayAfter(n, USER_AT_ADDRESS));
    expect(delays).to.deep.equal([0, 0, 1000, 2000, 4000, 256_000, 300_000, 300_000]);
    expect(delayAfter(30, ADDRESS)).to.equal(0);
    expect(delayAfter(31, ADDRESS)).to.equal(1000);
  });

  it('five failures are free; the sixth closes the user at that address for 1 s, unchecked even with the right password; the next failure closes it for 2 s', async () => {
    const { login, failTimes, advance, checked } = setup();
    await failTimes(6, 'admin');
    expect(held(await login('admin', A, 'right'))).to.equal(1000);
    advance(999);
    expect(held(await login('admin'))).to.equal(1);
    expect(checked()).to.equal(6);
    advance(1);
    expect(await login('admin')).to.deep.equal({ ok: false });
    expect(held(await login('admin'))).to.equal(2000);
  });

  it('never holds the user back at another address: failures elsewhere cannot lock the admin out', async () => {
    const { login, failTimes } = setup();
    await failTimes(6, 'admin', A);
    expect(held(await login('admin', A))).to.equal(1000);
    expect(await login('admin', B, 'right')).to.deep.equal({ ok: true });
  });

  it('an address failing for many user names is closed for every name after 31 failures, other addresses are not', async () => {
    const { login, checked } = setup();
    for (let i = 0; i < 31; i++) expect(await login(`user${i}`, A)).to.deep.equal({ ok: false });
    expect(held(await login('someone-else', A, 'right'))).to.equal(1000);
    expect(checked()).to.equal(31);
    expect(await login('someone-else', B, 'right')).to.deep.equal({ ok: true });
  });

  it('a shared address (the broker) is not closed on its own, only per user', async () => {
    const { login } = setup();
    for (let i = 0; i < 40; i++) await login(`user${i}`, BROKER);
    expect(await login('reader', BROKER, 'right')).to.deep.equal({ ok: true });
  });

  it('a success clears the count of the user at that address', async () => {
    const { login, failTimes } = setup();
    await failTimes(4, 'alice');
    expect(await login('alice', A, 'right')).to.deep.equal({ ok: true });
    await failTimes(6, 'alice');
    expect(held(await login('alice'))).to.equal(1000);
  });

  it('parallel guesses get the checks of guesses one after the other: 6 of 50 for one user, 31 of 80 under 80 names at one address', async () => {
    const one = setup();
    const outcomes = await one.parallel(50, () => one.login('admin'));
    expect(one.checked()).to.equal(6);
    expect(outcomes.filter((o) => held(o) !== undefined)).to.have.length(44);
    const many = setup();
    const spread = await many.parallel(80, (i) => many.login(`user${i}`));
    expect(many.checked()).to.equal(31);
    expect(spread.filter((o) => held(o) !== undefined)).to.have.length(49);
  });

  it('a burst right after a hold ends gets one check, which holds the key again at once for 2 s', async () => {
    const { login, failTimes, parallel, advance, checked } = setup();
    await failTimes(6, 'admin');
    advance(1000);
    const burst = await parallel(12, () => login('admin'));
    expect(checked()).to.equal(7);
    expect(burst.map(held).filter((ms) => ms !== undefined)).to.deep.equal(Array(11).fill(2000));
  });

  it('good logins in parallel are all checked and pass, at most six at a time, and count nothing', async () => {
    const { throttle, login, failTimes } = setup();
    let inFlight = 0;
    let most = 0;
    const good = await Promise.all(
      Array.from({ length: 40 }, () =>
        throttle.attempt('alice', A, async () => {
          most = Math.max(most, ++inFlight);
          await sleep(2);
          inFlight--;
          return true;
        }),
      ),
    );
    expect(good.every((o) => 'ok' in o && o.ok)).to.equal(true);
    expect(most).to.equal(6);
    await failTimes(5, 'alice');
    expect(await login('alice', A, 'right')).to.deep.equal({ ok: true });
  });

  it('a check that throws counts nothing and holds nobody back', async () => {
    const { throttle, failTimes } = setup();
    for (let i = 0; i < 10; i++) {
      const broken = throttle.attempt('admin', A, () => Promise.reject(new Error('redis gone')));
      await broken.then(
        () => expect.fail('the error is the caller\'s'),
        (err: Error) => expect(err.message).to.equal('redis gone'),
      );
    }
    await failTimes(5, 'admin');
  });

  it('a check in flight longer than the limit (its process died) no longer holds others back', async () => {
    const { throttle, login, failTimes, advance } = setup();
    await failTimes(5, 'admin');
    let release = (): void => undefined;
    const stuck = throttle.attempt('admin', A, () => new Promise<boolean>((resolve) => (release = () => resolve(false))));
    const waiting = login('admin');
    advance(IN_FLIGHT_LIMIT_MS);
    expect(await waiting).to.deep.equal({ ok: false });
    release();
    await stuck;
  });

  it('failures are forgotten 30 minutes after the last one', async () => {
    const { login, failTimes, advance } = setup();
    await failTimes(6, 'admin');
    expect(held(await login('admin'))).to.equal(1000);
    advance(30 * 60_000);
    await failTimes(5, 'admin');
    expect(await login('admin', A, 'right')).to.deep.equal({ ok: true });
  });

  it('when the shared store fails, counts go on in this process (logged once) and it goes back when the store answers', async () => {
    let down = true;
    const shared = new MemoryThrottleStore();
    const refuse = (): Promise<never> => Promise.reject(new Error('redis down'));
    const flaky: ThrottleStore = {
      start: (keys, attempt, now) => (down ? refuse() : shared.start(keys, attempt, now)),
      end: (keys, attempt, outcome, now) => (down ? refuse() : shared.end(keys, attempt, outcome, now)),
    };
    const hung: ThrottleStore = { start: () => new Promise(() => undefined), end: () => new Promise(() => undefined) };
    const lines: Array<[string, string]> = [];
    const logger = {
      debug: () => undefined,
      info: (m: string) => lines.push(['info', m]),
      warn: (m: string) => lines.push(['warn', m]),
      error: () => undefined,
      child: () => logger,
    } as unknown as Logger;
    let now = 0;
    const { login, failTimes } = setup(new FallbackThrottleStore(flaky, new MemoryThrottleStore(), logger, 500, 5000, () => now));
    await failTimes(6, 'admin');
    expect(held(await login('admin'))).to.be.a('number');
    expect(lines.filter(([level]) => level === 'warn')).to.have.length(1);
    down = false;
    // Redis is tried again only after 5 s: meanwhile the memory counts hold.
    expect(held(await login('admin'))).to.be.a('number');
    now += 5000;
    expect(await login('admin', A, 'right')).to.deep.equal({ ok: true }); // the shared store saw nothing
    expect(lines.at(-1)).to.deep.equal(['info', 'login throttle: counting in Redis again']);

    // A store that does not answer at all counts as failed, within the timeout.
    const slow = setup(new FallbackThrottleStore(hung, new MemoryThrottleStore(), logger, 50));
    await slow.failTimes(6, 'admin');
    expect(held(await slow.login('admin'))).to.be.a('number');
  });
});
