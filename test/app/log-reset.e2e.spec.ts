// A new event log under an old Redis namespace (data directory deleted):
// the read models must not show the old log's configuration.
import { expect } from 'chai';
import { startTestApp } from '../support/app';

describe('read models after the event log was replaced', function () {
  this.timeout(60_000);

  it('are rebuilt from the new log instead of mixing two histories', async () => {
    const prefix = `tagtrail-test-${crypto.randomUUID()}:`;
    const first = await startTestApp({ REDIS_KEY_PREFIX: prefix });
    for (const name of ['a', 'b', 'c']) {
      expect((await first.request('POST', '/configuration/v1/facilities/create', { body: { name } })).status).to.equal(200);
    }
    await first.stop({ keepRedis: true });
    // Same Redis namespace, a fresh data directory: a new, shorter log.
    const second = await startTestApp({ REDIS_KEY_PREFIX: prefix });
    try {
      const list = await second.request('GET', '/configuration/v1/facilities/show');
      expect(list.status).to.equal(200);
      expect(list.body).to.deep.equal([{ name: 'DEFAULT' }]);
      const created = await second.request('POST', '/configuration/v1/facilities/create', { body: { name: 'a' } });
      expect(created.status).to.equal(200);
    } finally {
      await second.stop();
    }
  });
});
