// `npm run rebuild -- <readModel>` for every Redis read model, in-process
// against a running test app with data in all of them (configuration, users
// and tokens, agent secrets, a job with tag reports through the agent API,
// reader health, items from the engine). Per read model:
// - the rebuilt model has exactly the keys and contents of the live one, and
//   the side namespace is gone;
// - the service answers reads of that model all through the rebuild;
// - replaying every event a second time over a built model changes nothing.
import { expect } from 'chai';
import { EventStoreDBClient } from '@eventstore/db-client';
import { createClient } from 'redis';
import { agentAuthorization } from '../../src/agents/guard';
import { createLogger } from '../../src/core/logger';
import { RedisKeys } from '../../src/core/redis/keys';
import type { RedisClient } from '../../src/core/redis/connect';
import { RedisCheckpointStore } from '../../src/core/subscriptions';
import { READ_MODELS } from '../../src/app/read-models';
import { rebuildReadModel } from '../../projections/rebuild';
import type { RebuildableReadModel } from '../../projections/read-model';
import { basic, startTestApp, type TestApp } from '../support/app';
import { expectStatus } from '../readerconfigurations/e2e-support';
import { epc, eventually, JOBS, startLiveJob } from '../engine/live-job';
import { sleep } from '../support/wait';

const silent = createLogger('test', { silent: true });
type Snapshot = Record<string, unknown>;

describe('rebuilding every read model beside the live one', function () {
  this.timeout(120_000);
  let app: TestApp;
  let client: EventStoreDBClient;
  let redis: RedisClient;
  let keys: RedisKeys;
  let jobId = '';

  /** Every key `model` writes under `at`, by its name relative to the namespace, with its contents. */
  const snapshot = async (model: RebuildableReadModel, at: RedisKeys): Promise<Snapshot> => {
    const found = new Set<string>();
    for (const prefix of model.keyPrefixes(at)) {
      for await (const ks of redis.scanIterator({ MATCH: `${prefix.replace(/[*?[\]\\]/g, (c) => `\\${c}`)}*`, COUNT: 1000 })) ks.forEach((k) => found.add(k));
    }
    const out: Snapshot = {};
    for (const k of [...found].sort()) {
      const type = await redis.type(k);
      const name = k.slice(at.base.length);
      if (type === 'hash') out[name] = await redis.hGetAll(k);
      else if (type === 'zset') out[name] = await redis.zRangeWithScores(k, 0, -1);
      // HyperLogLogs (jobs:epcs:<id>) cache their count in the value: compare counts.
      else if (type === 'string') out[name] = name.includes(':epcs:') ? { pfCount: await redis.pfCount(k) } : await redis.get(k);
      else throw new Error(`unexpected ${type} key ${k}`);
    }
    return out;
  };
  /** A snapshot that stayed the same for 300 ms (the live model has caught up). */
  const settled = async (model: RebuildableReadModel): Promise<Snapshot> => {
    let last = await snapshot(model, keys);
    for (;;) {
      await sleep(300);
      const now = await snapshot(model, keys);
      if (JSON.stringify(now) === JSON.stringify(last)) return now;
      last = now;
    }
  };
  /** A read the running service answers from `model`. */
  const readsOf = (name: string): string[] => {
    switch (name) {
      case 'config': return ['/configuration/v1/readerDefinitions/show', '/configuration/v1/users/show', '/control/v1/currentZoneMap/show/DEFAULT'];
      case 'health': return ['/health/v1/readers'];
      case 'jobs': return [`${JOBS}/show`, `${JOBS}/stats/${jobId}`];
      case 'items': return ['/data/v1/items/show', '/data/v1/items/show/history'];
      default: throw new Error(`no reads for read model ${name}`);
    }
  };
  /** The answers, without what the clock alone changes (a job's activeDuration counts seconds running until now). */
  const answers = async (name: string): Promise<unknown[]> =>
    Promise.all(readsOf(name).map(async (path) => {
      const res = await app.request('GET', path);
      expectStatus(res, 200);
      return JSON.parse(JSON.stringify(res.body, (k, v: unknown) => (k === 'activeDuration' ? undefined : v))) as unknown;
    }));

  before(async () => {
    app = await startTestApp({ HEALTH_CHECKIN_INTERVAL_SECONDS: '3600', JOB_ACK_TIMEOUT_SECONDS: '60' });
    client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    redis = createClient({ url: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379' }) as RedisClient;
    await redis.connect();
    keys = new RedisKeys(app.keyPrefix);
    // Configuration, users, tokens (one revoked), a current zone map.
    expectStatus(await app.request('POST', '/configuration/v1/users/create', { body: { name: 'cm', password: 'cm-passphrase', roles: ['ConfigManager'] } }), 200);
    // One after the other: two at once may race on the user's token stream (a 409).
    const tokens: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await app.request('GET', '/authentication/v1/token', { auth: basic('cm', 'cm-passphrase') });
      expectStatus(res, 200);
      tokens.push(res.body.token as string);
    }
    expectStatus(await app.request('PUT', '/authentication/v1/revokeToken', { body: { token: tokens[0] } }), 204);
    expectStatus(await app.request('POST', '/configuration/v1/zoneMaps/create', { body: { name: 'ground', zones: [{ name: 'DOCK', points: [{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 10, y: 10 }, { x: 0, y: 10 }] }, { name: 'SHELF', points: [{ x: 20, y: 0 }, { x: 30, y: 0 }, { x: 30, y: 10 }, { x: 20, y: 10 }] }] } }), 200);
    expectStatus(await app.request('POST', '/control/v1/currentZoneMap/select/ground'), 200);
    // A running job whose reader sends check-ins, health events and tag reports.
    const job = await startLiveJob(app, { type: 'INVENTORY', readers: [{ name: 'dock-1', antennaZones: { '1': 'DOCK', '2': 'SHELF' } }] });
    jobId = job.jobId;
    const health = [{ eventTime: new Date().toISOString(), type: 'CLOCK_SYNC', code: 'NTP', args: { message: 'drift' } }];
    expectStatus(await app.request('POST', '/configuration/v1/readerDefinitions/create', { body: { name: 'dock-2' } }), 200);
    const issued = await app.request('PUT', '/agent/v1/readers/dock-2/secret');
    const auth2 = agentAuthorization('dock-2', issued.body.secret as string);
    expectStatus(await app.request('POST', '/agent/v1/readers/dock-2/checkin', { auth: auth2, body: { agentId: 'a2', versions: { App: '1.0.0', Firmware: '7.6.1' }, state: 'IDLE' } }), 200);
    expectStatus(await app.request('POST', '/agent/v1/readers/dock-2/health', { auth: auth2, body: { events: health } }), 204);
    for (let r = 0; r < 4; r++) {
      await job.report('dock-1', Array.from({ length: 10 }, (_, i) => ({ epc: epc(r * 5 + i), antennaId: 1 + ((r + i) % 2), peakRssi: -60 + r })));
      app.clock.advance(1100); // past the compute window: each report places its tags anew
    }
    await eventually('items of the reports', async () => (await app.request('GET', '/data/v1/items/show')).body.items.length as number, (n) => n === 25);
  });
  after(async () => {
    await redis?.quit();
    await client?.dispose();
    await app?.stop();
  });

  it('knows config, health, jobs and items', () => {
    expect(READ_MODELS.map((m) => m.name)).to.have.members(['config', 'health', 'jobs', 'items', 'transitions', 'epcis']);
  });

  for (const name of ['config', 'health', 'jobs', 'items']) {
    it(`${name}: rebuilt while the service runs, the same keys and contents; reads answered throughout`, async () => {
      const model = READ_MODELS.find((m) => m.name === name);
      if (!model) throw new Error(`no read model ${name}`);
      const before = await settled(model);
      expect(Object.keys(before).length, 'keys of the live model').to.be.greaterThan(0);
      const answered = await answers(name);
      // A stale key of the live model that no event explains must go.
      const stale = `${model.keyPrefixes(keys)[0]}stale-by-test`;
      await redis.hSet(stale, 'x', '1');
      let reading = true;
      let reads = 0;
      const reader = (async () => {
        while (reading) {
          expect(await answers(name)).to.deep.equal(answered);
          reads++;
        }
      })();
      try {
        const result = await rebuildReadModel({ model, client, redis, keys, logger: silent, progressEveryMs: 20 });
        expect(result.keysSwitched).to.equal(Object.keys(before).length);
      } finally {
        reading = false;
        await reader;
      }
      expect(reads, 'reads during the rebuild').to.be.greaterThan(0);
      expect(await snapshot(model, keys)).to.deep.equal(before);
      const left: string[] = [];
      for await (const ks of redis.scanIterator({ MATCH: `${app.keyPrefix}rebuild-*`, COUNT: 1000 })) left.push(...ks);
      expect(left, 'side namespace keys left').to.deep.equal([]);
      expect(await answers(name)).to.deep.equal(answered);
    });

    it(`${name}: replaying every event over the built model changes nothing`, async () => {
      const model = READ_MODELS.find((m) => m.name === name);
      if (!model) throw new Error(`no read model ${name}`);
      const live = await settled(model);
      const copy = new RedisKeys(`${app.keyPrefix}replay-${name}:`);
      const build = async (): Promise<void> => {
        const sub = model.start({ client, redis, keys: copy, logger: silent });
        await sub.caughtUp;
        await sub.stop();
      };
      await build();
      const once = await snapshot(model, copy);
      expect(once, 'built from the log = live').to.deep.equal(live);
      await redis.del(new RedisCheckpointStore(redis, copy.checkpointPrefix).key(model.projection));
      await build();
      expect(await snapshot(model, copy), 'after replaying everything again').to.deep.equal(once);
    });
  }
});
