// Feature changes end to end: a client requests over HTTP, the reader agent
// side (called directly, as the agent gateway of a later issue will) takes
// and completes or fails the request, and HTTP shows each state.
import { expect } from 'chai';
import { ApiError } from '../../src/core/http/errors';
import {
  completeFeatureChange,
  failFeatureChange,
  takeFeatureChange,
} from '../../src/readerdefinitions/feature-commands';
import { startTestApp, type TestApp } from '../support/app';
import { logHead } from '../support/log-head';
import { agentSide, errorPaths, READERS, userWithRole, type AgentSide } from './e2e-support';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  return expect.fail('expected an ApiError');
}

describe('reader feature changes over HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;
  let agent: AgentSide;
  let root: string;
  const R = 'hub reader 1'; // a name that needs escaping in paths (a space; a slash is refused in names)
  const r = encodeURIComponent(R);
  const changes = `${READERS}/${r}/featureChanges`;

  before(async () => {
    app = await startTestApp();
    agent = await agentSide(app);
    root = new URL(app.baseUrl).pathname;
    const created = await app.request('POST', `${READERS}/create`, { body: { name: R } });
    expect(created.status).to.equal(200);
    expect((await app.request('POST', `${READERS}/create`, { body: { name: 'other' } })).status).to.equal(200);
  });
  after(async () => {
    await agent?.close();
    await app?.stop();
  });

  it('before any request: the feature is DISABLED and IDLE, never requested; nothing is active', async () => {
    const status = await app.request('GET', `${changes}/ANTENNA_HUB`);
    expect(status.status).to.equal(200);
    expect(status.body).to.deep.equal({
      status: 'DISABLED', statusLastUpdated: null, requestStatus: 'IDLE', requestStatusLastUpdated: null, requestTargetStatus: null,
    });
    expect((await app.request('GET', changes)).body).to.deep.equal({});
    expect((await app.request('GET', `${READERS}/show/${r}`)).body.features).to.deep.equal({});
  });

  it('request: 202 with Location = full path of the status, which reads INITIALIZING', async () => {
    const res = await app.request('POST', changes, { body: { feature: 'ANTENNA_HUB', action: 'ENABLE' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    const location = res.headers.get('location');
    expect(location).to.equal(`${root}/configuration/v1/readerDefinitions/hub%20reader%201/featureChanges/ANTENNA_HUB`);
    expect(res.body).to.include({ requestStatus: 'INITIALIZING', requestTargetStatus: 'ENABLED', status: 'DISABLED' });

    const status = await app.request('GET', String(location).slice(root.length));
    expect(status.status).to.equal(200);
    expect(status.body).to.include({ status: 'DISABLED', statusLastUpdated: null, requestStatus: 'INITIALIZING', requestTargetStatus: 'ENABLED' });
    expect(status.body.requestStatusLastUpdated).to.match(ISO);
    expect(status.body).to.not.have.property('message');
  });

  it('INITIALIZING: another request is 409 and appends nothing; the listing shows only CONFIGURING or ERROR', async () => {
    const head = await logHead(app.eventStoreConnectionString);
    const again = await app.request('POST', changes, { body: { feature: 'ANTENNA_HUB', action: 'DISABLE' } });
    expect(again.status).to.equal(409);
    expect(again.body.message).to.match(/already in progress \(requestStatus INITIALIZING\)/);
    expect(await logHead(app.eventStoreConnectionString)).to.equal(head);
    expect((await app.request('GET', changes)).body).to.deep.equal({});
  });

  it('the agent takes it: CONFIGURING, active, still 409 for a new request; a repeated take changes nothing', async () => {
    const taken = await takeFeatureChange(agent.deps, R, 'ANTENNA_HUB');
    expect(taken.requestStatus).to.equal('CONFIGURING');
    const head = await logHead(app.eventStoreConnectionString);
    expect((await takeFeatureChange(agent.deps, R, 'ANTENNA_HUB')).requestStatus).to.equal('CONFIGURING');
    expect(await logHead(app.eventStoreConnectionString)).to.equal(head);

    const active = await app.request('GET', changes);
    expect(Object.keys(active.body)).to.deep.equal(['ANTENNA_HUB']);
    expect(active.body.ANTENNA_HUB).to.include({ requestStatus: 'CONFIGURING', requestTargetStatus: 'ENABLED' });
    expect((await app.request('POST', changes, { body: { feature: 'ANTENNA_HUB', action: 'ENABLE' } })).status).to.equal(409);
  });

  it('the agent reports success: ENABLED and IDLE; nothing active; show and list carry the feature', async () => {
    const done = await completeFeatureChange(agent.deps, R, 'ANTENNA_HUB', 'ENABLED');
    expect(done).to.include({ status: 'ENABLED', requestStatus: 'IDLE', requestTargetStatus: null });

    const status = (await app.request('GET', `${changes}/ANTENNA_HUB`)).body;
    expect(status).to.include({ status: 'ENABLED', requestStatus: 'IDLE', requestTargetStatus: null });
    expect(status.statusLastUpdated).to.match(ISO);
    expect(status.requestStatusLastUpdated).to.equal(status.statusLastUpdated);
    expect((await app.request('GET', changes)).body).to.deep.equal({});

    expect((await app.request('GET', `${READERS}/show/${r}`)).body.features).to.deep.equal({ ANTENNA_HUB: status });
    const list = (await app.request('GET', `${READERS}/show`)).body as Array<{ name: string; features: unknown }>;
    expect(list.find((d) => d.name === R)?.features).to.deep.equal({ ANTENNA_HUB: status });
    expect(list.find((d) => d.name === 'other')?.features).to.deep.equal({});
    const replaced = await app.request('PUT', `${READERS}/createOrReplace`, { body: { name: R, address: 'hub.local' } });
    expect(replaced.status).to.equal(200);
    expect(replaced.body.features).to.deep.equal({ ANTENNA_HUB: status });
  });

  it('the agent reports failure: ERROR with the message, listed as active; the status stays the last reported', async () => {
    expect((await app.request('POST', changes, { body: { feature: 'ANTENNA_HUB', action: 'DISABLE' } })).status).to.equal(202);
    await takeFeatureChange(agent.deps, R, 'ANTENNA_HUB');
    const failed = await failFeatureChange(agent.deps, R, 'ANTENNA_HUB', 'antenna hub not connected');
    expect(failed.requestStatus).to.equal('ERROR');

    const status = (await app.request('GET', `${changes}/ANTENNA_HUB`)).body;
    expect(status).to.include({
      status: 'ENABLED', requestStatus: 'ERROR', requestTargetStatus: 'DISABLED', message: 'antenna hub not connected',
    });
    expect((await app.request('GET', changes)).body).to.deep.equal({ ANTENNA_HUB: status });
  });

  it('after ERROR a new request starts afresh (202, INITIALIZING, message gone)', async () => {
    const res = await app.request('POST', changes, { body: { feature: 'ANTENNA_HUB', action: 'DISABLE' } });
    expect(res.status).to.equal(202);
    const status = (await app.request('GET', `${changes}/ANTENNA_HUB`)).body;
    expect(status).to.include({ requestStatus: 'INITIALIZING', requestTargetStatus: 'DISABLED' });
    expect(status).to.not.have.property('message');
    expect((await app.request('GET', changes)).body).to.deep.equal({});
  });

  it('a success report of the wrong status fails the request, naming both', async () => {
    await completeFeatureChange(agent.deps, R, 'ANTENNA_HUB', 'ENABLED');
    const status = (await app.request('GET', `${changes}/ANTENNA_HUB`)).body;
    expect(status).to.include({ requestStatus: 'ERROR', message: 'the reader reported ANTENNA_HUB ENABLED, not the requested DISABLED' });
  });

  it('agent reports with nothing pending are 409', async () => {
    const taken = await rejection(takeFeatureChange(agent.deps, 'other', 'ANTENNA_HUB'));
    expect(taken.status).to.equal(409);
    expect((await rejection(completeFeatureChange(agent.deps, 'other', 'ANTENNA_HUB', 'ENABLED'))).status).to.equal(409);
    expect((await rejection(failFeatureChange(agent.deps, 'other', 'ANTENNA_HUB', 'x'))).status).to.equal(409);
  });

  it('400 for an unknown feature or action, 404 for an unknown reader; nothing is written', async () => {
    const head = await logHead(app.eventStoreConnectionString);
    const badFeature = await app.request('GET', `${changes}/GPIO`);
    expect(badFeature.status).to.equal(400);
    expect(errorPaths(badFeature.body)).to.deep.equal(['params.feature']);
    const badBody = await app.request('POST', changes, { body: { feature: 'GPIO', action: 'TOGGLE' } });
    expect(badBody.status).to.equal(400);
    expect(errorPaths(badBody.body)).to.deep.equal(['body.feature', 'body.action']);

    const unknown = `${READERS}/nope/featureChanges`;
    const post = await app.request('POST', unknown, { body: { feature: 'ANTENNA_HUB', action: 'ENABLE' } });
    expect(post.status).to.equal(404);
    expect(post.body.message).to.match(/nope/);
    expect((await app.request('GET', `${unknown}/ANTENNA_HUB`)).status).to.equal(404);
    expect((await app.request('GET', unknown)).status).to.equal(404);
    expect(await logHead(app.eventStoreConnectionString)).to.equal(head);
  });

  it('ConfigManager may request and read; JobRunner may not', async () => {
    const manager = await userWithRole(app, 'fc-manager', 'ConfigManager');
    const runner = await userWithRole(app, 'fc-runner', 'JobRunner');
    const body = { feature: 'ANTENNA_HUB', action: 'ENABLE' };
    expect((await app.request('POST', `${READERS}/other/featureChanges`, { auth: runner, body })).status).to.equal(403);
    expect((await app.request('GET', `${READERS}/other/featureChanges`, { auth: runner })).status).to.equal(403);
    expect((await app.request('POST', `${READERS}/other/featureChanges`, { auth: manager, body })).status).to.equal(202);
    expect((await app.request('GET', `${READERS}/other/featureChanges/ANTENNA_HUB`, { auth: manager })).body.requestStatus).to.equal('INITIALIZING');
  });
});
