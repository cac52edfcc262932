import { expect } from 'chai';
import { startTestApp, basic, type TestApp } from '../support/app';
import { logHead } from '../support/log-head';

const PATH = '/configuration/v1/settings/SNMP';

describe('SNMP settings over HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app?.stop());

  it('none at first: GET 404, DELETE 204 and appends nothing', async () => {
    expect((await app.request('GET', PATH)).status).to.equal(404);
    const head = await logHead(app.eventStoreConnectionString);
    expect((await app.request('DELETE', PATH)).status).to.equal(204);
    expect(await logHead(app.eventStoreConnectionString)).to.equal(head);
  });

  it('PUT answers the settings in use (defaults filled in, timeout canonical, communityNameSet for the community), GET shows them, a second PUT replaces them', async () => {
    const put = await app.request('PUT', PATH, {
      body: { authConfig: { type: 'V2_COMMUNITY', communityName: 'public' }, trapTargetConfig: { host: 'nms.example', timeout: 'PT60S' } },
    });
    expect(put.status).to.equal(200);
    const inUse = {
      authConfig: { type: 'V2_COMMUNITY', communityNameSet: true },
      trapTargetConfig: { host: 'nms.example', port: 162, timeout: 'PT1M', retries: 2, messageType: 'TRAP' },
    };
    expect(put.body).to.deep.equal(inUse);
    expect((await app.request('GET', PATH)).body).to.deep.equal(inUse);

    const again = await app.request('PUT', PATH, { body: { authConfig: { type: 'V2_COMMUNITY', communityName: 'private' } } });
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal({ authConfig: { type: 'V2_COMMUNITY', communityNameSet: true }, trapTargetConfig: null });
    expect((await app.request('GET', PATH)).body).to.deep.equal(again.body);
  });

  it('400 naming the field for invalid settings, and nothing written', async () => {
    const before = (await app.request('GET', PATH)).body;
    const head = await logHead(app.eventStoreConnectionString);
    const cases: Array<[unknown, string[]]> = [
      [{}, ['body.authConfig']],
      [{ authConfig: { type: 'V3_USER', communityName: 'x' } }, ['body.authConfig.type']],
      [{ authConfig: { type: 'V2_COMMUNITY', communityName: '' } }, ['body.authConfig.communityName']],
      [{ authConfig: { type: 'V2_COMMUNITY', communityName: 'x' }, trapTargetConfig: { host: 'h', port: 70000 } }, ['body.trapTargetConfig.port']],
      [{ authConfig: { type: 'V2_COMMUNITY', communityName: 'x' }, trapTargetConfig: { host: 'h', timeout: '5s' } }, ['body.trapTargetConfig.timeout']],
      [{ authConfig: { type: 'V2_COMMUNITY', communityName: 'x' }, trapTargetConfig: { port: 162 } }, ['body.trapTargetConfig.host']],
      [{ authConfig: { type: 'V2_COMMUNITY', communityName: 'x' }, trapTargetConfig: { host: 'h', messageType: 'PUSH', retries: -1 } }, ['body.trapTargetConfig.retries', 'body.trapTargetConfig.messageType']],
    ];
    for (const [body, paths] of cases) {
      const res = await app.request('PUT', PATH, { body });
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.errors.map((e: { path: string }) => e.path), JSON.stringify(body)).to.have.members(paths);
      expect(res.body.errors[0].message).to.be.a('string');
    }
    expect((await app.request('PUT', PATH, { raw: '{"authConfig":' })).status).to.equal(400);
    expect(await logHead(app.eventStoreConnectionString)).to.equal(head);
    expect((await app.request('GET', PATH)).body).to.deep.equal(before);
  });

  it('DELETE removes them (204), then GET 404 and DELETE 204 again', async () => {
    expect((await app.request('DELETE', PATH)).status).to.equal(204);
    expect((await app.request('GET', PATH)).status).to.equal(404);
    expect((await app.request('DELETE', PATH)).status).to.equal(204);
  });

  it('is for ConfigManager and Admin only', async () => {
    expect((await app.request('POST', '/configuration/v1/users/create', { body: { name: 'dr', password: 'dr-password-1', roles: ['DataReader'] } })).status).to.equal(200);
    const res = await app.request('PUT', PATH, { auth: basic('dr', 'dr-password-1'), body: { authConfig: { type: 'V2_COMMUNITY', communityName: 'x' } } });
    expect(res.status).to.equal(403);
  });
});
