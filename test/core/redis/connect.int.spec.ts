// Needs Redis at REDIS_URL (default redis://127.0.0.1:6379).
import { expect } from 'chai';
import { closeRedis, connectRedis, redisHealth } from '../../../src/core/redis/connect';
import { createLogger } from '../../../src/core/logger';

const logger = createLogger('test');
const url = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

describe('connectRedis', () => {
  it('connects, answers the health check and closes', async () => {
    const client = await connectRedis(url, logger, 5000);
    await redisHealth(client);
    await closeRedis(client);
    let failed = false;
    await redisHealth(client).catch(() => (failed = true));
    expect(failed).to.equal(true);
  });

  it('fails start-up within the time limit when Redis is unreachable, naming it without the password', async () => {
    const started = Date.now();
    const err = await connectRedis('redis://:topsecret@127.0.0.1:1', logger, 500).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(Date.now() - started).to.be.lessThan(3000);
    expect(err?.message).to.contain('not reachable within 500 ms');
    expect(err?.message).to.contain('127.0.0.1:1');
    expect(err?.message).to.not.contain('topsecret');
  });
});
