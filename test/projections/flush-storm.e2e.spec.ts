// The service's Redis namespace emptied again and again (what a flush or a
// restart without persistence does: every key at once) while clients keep
// sending reads, health probes and metrics scrapes, each again as soon as it
// is answered. After each loss every read model must be served again, in a
// new generation, within a bound that only a stalled rebuild exceeds; a
// failure names the round, the loss and why each read model is not served
// (lost, or rebuilding and how many events it applied). In two rounds out of
// three a second loss lands in the rebuild the first one started: as it
// starts, or as it serves its first read models. Every answer meanwhile is
// 200 or 503, never 401 or 500.
//
// The probes are what made a rebuild stall: while read models rebuild, each
// probe counts their lag from the start of the log (see readModelStates in
// src/app/start.ts).
import { randomUUID } from 'node:crypto';
import { EventStoreDBClient, jsonEvent } from '@eventstore/db-client';
import { expect } from 'chai';
import { createClient } from 'redis';
import { READ_MODELS } from '../../src/app/read-models';
import { ApiError } from '../../src/core/http/errors';
import type { RedisClient } from '../../src/core/redis/connect';
import { RedisKeys } from '../../src/core/redis/keys';
import { ReadModelGate } from '../../src/core/redis/readiness';
import { epc, JOBS, startLiveJob } from '../engine/live-job';
import { expectStatus } from '../readerconfigurations/e2e-support';
import { ADMIN, startTestApp, type TestApp } from '../support/app';
import { loseRedisKeys } from '../support/redis-prefix';
import { waitFor, waitForValue } from '../support/wait';

const ROUNDS = 18;
/** Rounds 1, 2, 4, 5, ... lose the keys twice. */
const LOSSES = ROUNDS + ROUNDS - Math.floor(ROUNDS / 3);
const CLIENTS = 8;
/** A bound against a stall, not a speed requirement: this log is rebuilt in a second or two. */
const SERVED_AGAIN_WITHIN_MS = 20_000;
const NAMES = READ_MODELS.map((m) => m.name);

interface Odd {
  readonly url: string;
  readonly status: number;
}

describe('read models lost again and again while clients keep retrying', function () {
  // About 45 s on a quiet two-core machine; a stall is caught by the bound
  // of each loss, so this only leaves room for a machine under other load.
  this.timeout(180_000);
  let app: TestApp;
  let redis: RedisClient;
  let keys: RedisKeys;
  let gate: ReadModelGate;
  let jobId = '';
  let running = false;
  let clients: Promise<void>[] = [];
  let losses = 0;
  let refused = 0;
  const odd: Odd[] = [];

  /** What the clients ask for, in turn: reads of every read model, the metrics and the health probe. */
  const urls = (): string[] => [
    ...['/configuration/v1/users/show', '/configuration/v1/readerDefinitions/show', '/data/v1/items/show?pageSize=100', `${JOBS}/show/${jobId}`, '/health/v1/readers', '/metrics'].map(
      (path) => `${app.baseUrl}${path}`,
    ),
    new URL('/healthz', app.baseUrl).toString(),
  ];

  /**
   * One client: asks again as soon as it is answered, whatever the answer.
   * Only the status counts here (what a 200 holds is other tests' business),
   * so plain fetch rather than the contract-checking request of TestApp.
   */
  const client = async (first: number): Promise<void> => {
    const all = urls();
    for (let n = first; running; n++) {
      const url = all[n % all.length]!;
      const res = await fetch(url, { headers: { Authorization: ADMIN } });
      await res.arrayBuffer();
      if (res.status === 503) refused++;
      else if (res.status !== 200) odd.push({ url, status: res.status });
    }
  };

  /** The read models not served now, each with why (lost, or rebuilding and how far). */
  const notServed = async (): Promise<string[]> => {
    try {
      await gate.check(NAMES);
      return [];
    } catch (err) {
      if (err instanceof ApiError) return err.errors.map((e) => `${e.path}: ${e.reason}`);
      throw err;
    }
  };

  const lose = async (): Promise<void> => {
    await loseRedisKeys(app.keyPrefix);
    losses++;
  };

  /** Round `round`'s losses: one; or a second as the rebuild starts (its generation marker is back); or as it serves its first read models. */
  const loseInRound = async (round: number): Promise<void> => {
    await lose();
    if (round % 3 === 0) return;
    const when = round % 3 === 1 ? 'starting' : 'serving its first read models';
    await waitFor(`the rebuild after loss ${losses} ${when}`, async () => {
      if ((await redis.get(keys.generation)) === null) return false;
      return round % 3 === 1 || (await notServed()).length < NAMES.length;
    }, { timeoutMs: SERVED_AGAIN_WITHIN_MS, intervalMs: 5 });
    await lose();
  };

  /** A log of a service that has run a while: each read model rebuilt, and each lag counted, reads through it. */
  const appendOtherEvents = async (n: number): Promise<void> => {
    const es = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    try {
      await es.appendToStream(`other-${randomUUID()}`, Array.from({ length: n }, (_, i) => jsonEvent({ type: 'OtherThing', data: { i, note: 'x'.repeat(200) } })));
    } finally {
      await es.dispose();
    }
  };

  before(async () => {
    // Closing waits for the last rebuild's reads, which a loaded machine makes slow: a bound far above the
    // default, so a slow close is not cut short with the HTTP server, Redis and RabbitMQ still open.
    app = await startTestApp({ SHUTDOWN_TIMEOUT_MS: '60000' });
    for (let i = 0; i < 5; i++) {
      expectStatus(await app.request('POST', '/configuration/v1/users/create', { body: { name: `user${i}`, password: 'user-password', roles: ['ConfigManager'] } }), 200);
    }
    const job = await startLiveJob(app, { type: 'INVENTORY', readers: [{ name: 'dock-1' }] });
    jobId = job.jobId;
    for (let r = 0; r < 5; r++) await job.report('dock-1', Array.from({ length: 10 }, (_, k) => ({ epc: epc(r * 10 + k) })));
    await appendOtherEvents(500);
    redis = createClient({ url: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379' }) as RedisClient;
    await redis.connect();
    keys = new RedisKeys(app.keyPrefix);
    gate = new ReadModelGate(redis, keys);
  });
  after(async () => {
    running = false;
    await Promise.all(clients);
    await redis?.quit();
    await app?.stop();
  });

  it(`serves every read model again after each of ${ROUNDS} rounds (${LOSSES} losses), answering only 200 or 503 meanwhile`, async () => {
    running = true;
    clients = Array.from({ length: CLIENTS }, (_, i) => client(i));
    for (let round = 1; round <= ROUNDS; round++) {
      await loseInRound(round);
      await waitForValue(`every read model served again in round ${round} of ${ROUNDS} (after loss ${losses} of ${LOSSES})`, notServed, (left) => left.length === 0, {
        timeoutMs: SERVED_AGAIN_WITHIN_MS,
      });
    }
    running = false;
    await Promise.all(clients);
    expect(losses).to.equal(LOSSES);
    expect(refused, 'answers 503 while read models were rebuilt').to.be.greaterThan(0);
    expect(odd.slice(0, 10)).to.deep.equal([]);
  });
});
