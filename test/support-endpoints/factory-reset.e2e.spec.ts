// Support: factory reset through HTTP. Configuration, users, tokens, agent
// secrets, health and jobs back to the first-start state; admin/admindefault
// works again; names can be created again; a restart does not bring anything
// back; a configuration archive taken before can be restored afterwards.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStoreDBClient } from '@eventstore/db-client';
import { encodeEvent } from '../../src/core/events';
import { healthEvents, healthStream, type HealthStreamEvent } from '../../src/health/events';
import { createDemoConfiguration, issueSecret, startJob, stopJob } from '../../src/simulator/demo';
import { HttpClient } from '../../src/simulator/http';
import { generateLayout } from '../../src/simulator/layout';
import { createLogger } from '../../src/core/logger';
import { ADMIN, basic, startTestApp, type TestApp } from '../support/app';
import { DEFAULT_ANTENNA_CONFIGURATIONS, DEFAULT_READER_CONFIGURATIONS, DEFAULT_RECIPES } from '../../src/defaults/catalog';
import { waitForValue } from '../support/wait';

const RESET = '/support/v1/factoryReset';
const CONFIRM = { confirm: 'FACTORY_RESET' };

const until = <T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> => waitForValue(what, read, ok, { timeoutMs: 20_000, intervalMs: 100 });

describe('support: factory reset', function () {
  this.timeout(120_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'tagtrail-reset-'));
  const env = { DATA_DIR: dataDir, REDIS_KEY_PREFIX: `tagtrail-test-${crypto.randomUUID()}:`, JOB_STOP_TIMEOUT_SECONDS: '0' };
  let app: TestApp;
  let archive: unknown;
  let token: string;
  let jobId: string;
  const names = async (path: string): Promise<string[]> => {
    const res = await app.request('GET', path);
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).to.equal(200);
    return (res.body as Array<{ name?: string; readerName?: string }>).map((x) => x.name ?? x.readerName ?? '?').sort();
  };

  before(async () => {
    app = await startTestApp(env);
    const admin = new HttpClient(app.baseUrl, ADMIN);
    const layout = generateLayout({ facility: 'DEFAULT', readers: 2, families: ['SPEEDWAY'], tags: 1, seed: 3, prefix: 'fr-' });
    const demo = await createDemoConfiguration(admin, layout, 'fr-', createLogger('test'));
    expect((await app.request('POST', '/configuration/v1/users/create', { body: { name: 'op', password: 'op-secret-123', roles: ['DataReader'] } })).status).to.equal(200);
    expect((await app.request('PUT', '/configuration/v1/settings/SNMP', { body: { authConfig: { type: 'V2_COMMUNITY', communityName: 'c' } } })).status).to.equal(200);
    token = (await app.request('GET', '/authentication/v1/token')).body.token;
    await issueSecret(admin, layout.readers[0]!.name);
    const client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    const e = { type: 'HealthEventReported', data: { readerName: layout.readers[0]!.name, eventTime: new Date().toISOString(), type: 'CONNECTION', code: 'NETWORK', args: {} } } as HealthStreamEvent;
    await client.appendToStream(healthStream(layout.readers[0]!.name), [encodeEvent(healthEvents, e, { user: 'test' })]);
    await client.dispose();
    // A default the user removed comes back with the reset.
    expect((await app.request('DELETE', '/configuration/v1/recipes/destroy/IMPINJ_Fast_Location')).status).to.equal(204);
    jobId = await startJob(admin, demo.inventoryRecipe, 'DEFAULT', 'before-reset');
    archive = (await app.request('GET', '/support/v1/configuration')).body;
  });
  after(async () => {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses without confirm (400 naming it) and while a job is active (409 naming it), changing nothing', async () => {
    const bad = await app.request('POST', RESET, { body: { confirm: 'yes' } });
    expect(bad.status).to.equal(400);
    expect(bad.body.errors[0]).to.include({ path: 'body.confirm' });
    expect((await app.request('POST', RESET, { body: {} })).status).to.equal(400);
    const busy = await app.request('POST', RESET, { body: CONFIRM });
    expect(busy.status).to.equal(409);
    expect(busy.body.message).to.include(`JobId=${jobId}`);
    expect(await names('/configuration/v1/readerDefinitions/show')).to.have.length(2);
    expect((await app.request('GET', '/configuration/v1/users/show/op')).status).to.equal(200);
  });

  it('brings configuration and data back to the first-start state', async () => {
    await stopJob(new HttpClient(app.baseUrl, ADMIN), jobId);
    await until(() => app.request('GET', `/control/v1/jobs/show/${jobId}`), (r) => r.body?.status === 'STOPPED', 'job stopped');
    const res = await app.request('POST', RESET, { body: CONFIRM });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.deletedStreams).to.be.greaterThan(10);

    expect(await names('/configuration/v1/facilities/show')).to.deep.equal(['DEFAULT']);
    expect(await names('/configuration/v1/users/show')).to.deep.equal(['admin']);
    for (const kind of ['readerDefinitions', 'zoneMaps']) {
      expect(await names(`/configuration/v1/${kind}/show`), kind).to.deep.equal([]);
    }
    // The factory defaults, and only they, are back (the deleted one too).
    expect(await names('/configuration/v1/readerConfigurations/show')).to.deep.equal(DEFAULT_READER_CONFIGURATIONS.map((c) => c.name).sort());
    expect(await names('/configuration/v1/recipes/show')).to.deep.equal(DEFAULT_RECIPES.map((r) => r.name).sort());
    expect(await names('/configuration/v1/thresholds/antennaConfigurations')).to.deep.equal(DEFAULT_ANTENNA_CONFIGURATIONS.map((c) => c.name).sort());
    expect((await app.request('GET', '/configuration/v1/settings/SNMP')).status).to.equal(404);
    expect((await app.request('GET', '/control/v1/jobs/show')).body).to.deep.equal([]);
    expect((await app.request('GET', '/health/v1/readers')).body).to.deep.equal([]);
    expect((await app.request('POST', '/health/v1/events', { body: {} })).body.events).to.deep.equal([]);
    expect((await app.request('GET', '/configuration/v1/facilities/show', { auth: basic('admin', 'admindefault') })).status).to.equal(200);
    expect((await app.request('GET', '/configuration/v1/facilities/show', { auth: basic('op', 'op-secret-123') })).status).to.equal(401);
    expect((await app.request('GET', '/configuration/v1/facilities/show', { auth: `Token {"token":"${token}"}` })).status).to.equal(401);
    // Names are free again.
    expect((await app.request('POST', '/configuration/v1/readerDefinitions/create', { body: { name: 'fr-SPEEDWAY-1' } })).status).to.be.oneOf([200]);
  });

  it('stays reset across a restart, and a configuration archive from before restores into it', async () => {
    await app.stop({ keepRedis: true });
    app = await startTestApp(env);
    expect(await names('/configuration/v1/facilities/show')).to.deep.equal(['DEFAULT']);
    expect(await names('/configuration/v1/users/show')).to.deep.equal(['admin']);
    expect((await app.request('GET', '/control/v1/jobs/show')).body).to.deep.equal([]);
    // The reader definition created after the reset is configuration beyond
    // the first start: reset again, then restore the archive.
    expect((await app.request('POST', RESET, { body: CONFIRM })).status).to.equal(200);
    const restored = await app.request('POST', '/support/v1/configuration', { body: archive });
    expect(restored.status, JSON.stringify(restored.body)).to.equal(200);
    expect(await names('/configuration/v1/readerDefinitions/show')).to.have.length(2);
    expect((await app.request('GET', '/configuration/v1/users/currentUser', { auth: basic('op', 'op-secret-123') })).status).to.equal(200);
  });
});
