// The login throttle's Redis store does what its in-memory twin does (the
// unit tests' store, and the fallback while Redis is away): the same
// sequence of attempts started and ended, at the same times, under the same
// keys, is answered alike by both, closures, waits for checks in flight,
// successes, abandoned checks and lost attempts included.
import { expect } from 'chai';
import { ADDRESS, USER_AT_ADDRESS } from '../../src/auth/throttle';
import { RedisThrottleStore } from '../../src/auth/throttle-redis';
import { IN_FLIGHT_LIMIT_MS, MemoryThrottleStore, type CountedKey, type Outcome, type ThrottleStore } from '../../src/auth/throttle-store';
import { loadConfigOrThrow } from '../../src/config';
import { connectRedis, type RedisClient } from '../../src/core/redis/connect';
import { RedisKeys } from '../../src/core/redis/keys';
import { removeRedisKeys, testRedisPrefix } from '../support/redis-prefix';
import { silent } from '../support/logger';

const user = (name: string): CountedKey => ({ key: `user 10.0.0.1 ${name}`, policy: USER_AT_ADDRESS, clearedBySuccess: true });
const address: CountedKey = { key: 'address 10.0.0.1', policy: ADDRESS, clearedBySuccess: false };

type Step = readonly ['start', string, readonly CountedKey[]] | readonly ['end', string, readonly CountedKey[], Outcome] | readonly ['advance', number];

// Attempt ids are per scenario; times move only by `advance`.
function scenario(): Step[] {
  const steps: Step[] = [];
  const alice = [user('alice'), address];
  // Six parallel guesses start, a seventh waits; all six fail: the key is closed, the seventh refused.
  for (let i = 0; i < 7; i++) steps.push(['start', `g${i}`, alice]);
  for (let i = 0; i < 6; i++) steps.push(['end', `g${i}`, alice, 'failed']);
  steps.push(['start', 'g6', alice], ['advance', 999], ['start', 'g7', alice], ['advance', 1]);
  // The hold is over: one starts, the next waits, the one fails: closed for 2 s.
  steps.push(['start', 'h0', alice], ['start', 'h1', alice], ['end', 'h0', alice, 'failed'], ['start', 'h1', alice], ['advance', 2000]);
  // An abandoned check counts nothing; a success clears the user's key but not the address's.
  steps.push(['start', 'a0', alice], ['end', 'a0', alice, 'abandoned'], ['start', 'ok', alice], ['end', 'ok', alice, 'ok']);
  // The address: 30 free failures over many names (7 so far), the 31st closes it.
  for (let i = 0; i < 24; i++) steps.push(['start', `n${i}`, [user(`n${i}`), address]]);
  steps.push(['start', 'late', [user('late'), address]]);
  for (let i = 0; i < 24; i++) steps.push(['end', `n${i}`, [user(`n${i}`), address], 'failed']);
  steps.push(['start', 'late', [user('late'), address]], ['advance', 1000]);
  // A check in flight past the limit (its process died) holds nobody back.
  const bob = [user('bob')];
  for (let i = 0; i < 5; i++) steps.push(['start', `b${i}`, bob], ['end', `b${i}`, bob, 'failed']);
  steps.push(['start', 'lost', bob], ['start', 'b5', bob], ['advance', IN_FLIGHT_LIMIT_MS], ['start', 'b5', bob]);
  return steps;
}

async function play(store: ThrottleStore, steps: readonly Step[]): Promise<string[]> {
  let now = 1_700_000_000_000;
  const answers: string[] = [];
  for (const step of steps) {
    if (step[0] === 'advance') now += step[1];
    else if (step[0] === 'start') answers.push(`${step[1]}: ${JSON.stringify(await store.start(step[2], step[1], now))}`);
    else await store.end(step[2], step[1], step[3], now);
  }
  return answers;
}

describe('auth/throttle in Redis', function () {
  this.timeout(30_000);
  let redis: RedisClient;
  const prefix = testRedisPrefix();

  before(async () => {
    redis = await connectRedis(loadConfigOrThrow({}).redisUrl, silent, 5000);
  });
  after(async () => {
    await redis?.quit().catch(() => undefined);
    await removeRedisKeys(prefix);
  });

  it('answers every start as the in-memory store does', async () => {
    const expected = await play(new MemoryThrottleStore(), scenario());
    const got = await play(new RedisThrottleStore(redis, new RedisKeys(prefix)), scenario());
    expect(got).to.deep.equal(expected);
    // What the scenario is meant to show, so that both stores agreeing on something else fails too.
    const kinds = Object.fromEntries(expected.map((line) => [line.split(':')[0] ?? '', JSON.parse(line.slice(line.indexOf(':') + 1)) as { kind: string; retryAfterMs?: number }]));
    expect(kinds['g5']).to.deep.equal({ kind: 'started' });
    expect(expected.filter((l) => l.startsWith('g6:')).map((l) => l.slice(4))).to.deep.equal(['{"kind":"wait"}', '{"kind":"closed","retryAfterMs":1000}']);
    expect(kinds['g7']).to.deep.equal({ kind: 'closed', retryAfterMs: 1 });
    expect(expected.filter((l) => l.startsWith('h1:')).map((l) => l.slice(4))).to.deep.equal(['{"kind":"wait"}', '{"kind":"closed","retryAfterMs":2000}']);
    expect(kinds['ok']).to.deep.equal({ kind: 'started' });
    expect(expected.filter((l) => l.startsWith('late:')).map((l) => l.slice(6))).to.deep.equal(['{"kind":"wait"}', '{"kind":"closed","retryAfterMs":1000}']);
    expect(expected.filter((l) => l.startsWith('b5:')).map((l) => l.slice(4))).to.deep.equal(['{"kind":"wait"}', '{"kind":"started"}']);
  });

  it('keeps its keys under the service\'s prefix, and they expire by themselves', async () => {
    const keys = await redis.keys(`${prefix}*`);
    expect(keys.length).to.be.greaterThan(0);
    expect(keys.every((k) => /v1:login-(failures|attempts):[0-9a-f]{32}$/.test(k)), keys.join(', ')).to.equal(true);
    for (const k of keys) expect(await redis.pTTL(k), k).to.be.greaterThan(0);
  });
});
