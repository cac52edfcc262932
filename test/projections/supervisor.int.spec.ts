// The read model supervisor's progress reports and its marking a rebuilt
// read model ready, side by side: a report reads the log head and then
// records every read model still rebuilding; one that a rebuild marked ready
// meanwhile must stay ready. Progress is reported every millisecond here, so
// reports are in flight whenever a rebuild ends; the log is a test service's
// (the embedded event store), Redis the machine's, under a prefix of its own.
import { EventStoreDBClient } from '@eventstore/db-client';
import { expect } from 'chai';
import { createClient } from 'redis';
import { READ_MODELS } from '../../src/app/read-models';
import type { RedisClient } from '../../src/core/redis/connect';
import { RedisKeys } from '../../src/core/redis/keys';
import { parseStateDoc } from '../../src/core/redis/readiness';
import { superviseReadModels } from '../../projections/supervisor';
import { startTestApp, type TestApp } from '../support/app';
import { silent } from '../support/logger';
import { removeRedisKeys, testRedisPrefix } from '../support/redis-prefix';
import { sleep } from '../support/wait';

describe('read model supervisor: progress reports beside the end of a rebuild', function () {
  this.timeout(60_000);
  let app: TestApp;
  let client: EventStoreDBClient;
  let redis: RedisClient;
  const prefix = testRedisPrefix();
  const keys = new RedisKeys(prefix);

  before(async () => {
    app = await startTestApp();
    // A log with something to rebuild from.
    for (let i = 0; i < 20; i++) {
      expect((await app.request('POST', '/configuration/v1/facilities/create', { body: { name: `f${i}` } })).status).to.equal(200);
    }
    client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    redis = createClient({ url: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379' }) as RedisClient;
    await redis.connect();
  });
  after(async () => {
    await redis?.quit();
    await client?.dispose();
    await removeRedisKeys(prefix);
    await app?.stop();
  });

  it('every read model rebuilt from the log stays ready: no progress report lands after its ready', async () => {
    for (let round = 0; round < 5; round++) {
      await removeRedisKeys(prefix);
      const supervisor = superviseReadModels({ client, redis, keys, logger: silent, models: READ_MODELS, progressEveryMs: 1 });
      try {
        for (const m of READ_MODELS) await supervisor.ready(m.name);
        // Reports already sent land within a few milliseconds; none may say rebuilding after this.
        await sleep(100);
        const states = await redis.hGetAll(keys.readModelStates);
        const notReady = READ_MODELS.map((m) => [m.name, parseStateDoc(states[m.name])?.state] as const).filter(([, state]) => state !== 'ready');
        expect(notReady, `round ${round}`).to.deep.equal([]);
      } finally {
        await supervisor.stop();
      }
    }
  });
});
