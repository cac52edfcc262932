// GET /about/v1/info: what is running, for every role, without passwords.
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app';
import { createUser } from '../readerconfigurations/e2e-support';

describe('about', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672' });
  });
  after(async () => app?.stop());

  it('says version, commit, uptime, roles and targets with passwords hidden, to any role', async () => {
    const reader = await createUser(app, 'viewer', ['DataReader']);
    const res = await app.request('GET', '/about/v1/info', { auth: reader });
    expect(res.status).to.equal(200);
    expect(res.body.version).to.equal((require('../../package.json') as { version: string }).version); // eslint-disable-line @typescript-eslint/no-require-imports
    expect(res.body.roles).to.include('api');
    expect(res.body.uptimeSeconds).to.be.a('number');
    expect(res.body.targets.amqp).to.equal('amqp://guest:***@127.0.0.1:5672');
    expect(res.body.targets.eventStore).to.equal(app.eventStoreConnectionString);
    expect(JSON.stringify(res.body)).not.to.contain('guest:guest');
    expect((await app.request('GET', '/about/v1/info', { auth: null })).status).to.equal(401);
  });
});
