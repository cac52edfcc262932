// Needs RabbitMQ at AMQP_URL (default amqp://guest:guest@127.0.0.1:5672).
import { expect } from 'chai';
import { connectAmqp } from '../../../src/core/amqp/connect';
import { createLogger } from '../../../src/core/logger';

const logger = createLogger('test');
const url = process.env['AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672';

describe('connectAmqp', () => {
  it('connects, answers the health check and closes', async () => {
    const conn = await connectAmqp(url, logger, 10_000, 'tagtrail-test');
    expect(conn.isConnected()).to.equal(true);
    await conn.health(2000);
    await conn.close();
    expect(conn.isConnected()).to.equal(false);
  });

  it('fails start-up within the time limit when the broker is unreachable, without the password', async () => {
    const started = Date.now();
    const err = await connectAmqp('amqp://guest:topsecret@127.0.0.1:1', logger, 500, 'tagtrail-test').then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(Date.now() - started).to.be.lessThan(5000);
    expect(err?.message).to.contain('not reachable within 500 ms');
    expect(err?.message).to.not.contain('topsecret');
  });
});
