// Redis losing its data under an LLRP reader and an IoT reader over MQTT
// streaming into a job, on a Redis server of the test's own: first every key
// of the service deleted (a flush), then the server killed and started again
// empty. Meanwhile the job's read model rebuilds (503), Redis is away, the
// reader leases and the gateway's list of recent reportIds are gone; the
// reader connections keep what they could not store and send it again. Every
// read the readers sent is in the event log exactly once, none dropped.
import { startTestApp, waitForReadModels, type TestApp } from '../support/app';
import { startOwnRedis, type OwnRedis } from '../support/redis-server';
import { loseRedisKeys } from '../support/redis-prefix';
import { sleep } from '../support/wait';
import { StreamingReaders, streamingEnv } from './streaming';

describe('reader connections: Redis losing its data while readers stream', function () {
  this.timeout(300_000);
  let redis: OwnRedis;
  let app: TestApp;
  let readers: StreamingReaders;

  before(async () => {
    const topicPrefix = `tagtrail-test/${crypto.randomUUID()}`;
    redis = await startOwnRedis();
    app = await startTestApp({ ...streamingEnv(topicPrefix), REDIS_URL: redis.url });
    readers = new StreamingReaders(topicPrefix);
    await readers.start(app);
  });
  after(async () => {
    await readers?.close();
    if (redis && !redis.running) await redis.start(); // a failed test may have left it down: the app cleans its keys there
    await app?.stop();
    await redis?.close();
  });

  it('every key of the service deleted: every read stored once', async () => {
    await readers.storedAtLeast(app, 20);
    await loseRedisKeys(app.keyPrefix, redis.url);
    const sentAtLoss = Math.min(readers.sent.llrp.length, readers.sent.mqtt.length);
    await waitForReadModels(new URL('/healthz', app.baseUrl).href, 90_000);
    await readers.storedAtLeast(app, sentAtLoss + 20);
  });

  it('the server killed and started again empty: every read stored once', async () => {
    const sentBefore = Math.min(readers.sent.llrp.length, readers.sent.mqtt.length);
    await readers.storedAtLeast(app, sentBefore);
    await redis.kill();
    // Down long enough for several reporting intervals to fail.
    await sleep(3000);
    await redis.start();
    const sentAtRestart = Math.min(readers.sent.llrp.length, readers.sent.mqtt.length);
    await waitForReadModels(new URL('/healthz', app.baseUrl).href, 90_000);
    await readers.storedAtLeast(app, sentAtRestart + 20);
    await readers.stop();
    await readers.expectEachStoredOnce(app);
  });
});
