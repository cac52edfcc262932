// The factory defaults of a fresh install: present without any
// configuration written, usable at once (a reader and a job started from a
// default recipe), written once: a default the user deletes stays deleted
// across restarts.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ANTENNA_CONFIGURATIONS, DEFAULT_READER_CONFIGURATIONS, DEFAULT_RECIPES } from '../../src/defaults/catalog';
import { startTestApp, type TestApp } from '../support/app';

const RC = '/configuration/v1/readerConfigurations';
const RECIPES = '/configuration/v1/recipes';
const CONFIGS = '/configuration/v1/thresholds/antennaConfigurations';
const JOBS = '/control/v1/jobs';

describe('factory defaults of a fresh install', function () {
  this.timeout(120_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'tagtrail-defaults-'));
  const env = { DATA_DIR: dataDir, REDIS_KEY_PREFIX: `tagtrail-test-${crypto.randomUUID()}:`, JOB_STOP_TIMEOUT_SECONDS: '0' };
  let app: TestApp;
  before(async () => {
    app = await startTestApp(env);
  });
  after(async () => {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const names = async (path: string): Promise<string[]> => ((await app.request('GET', path)).body as Array<{ name: string }>).map((x) => x.name).sort();

  it('lists the default reader configurations, recipes and antenna configurations, with their values', async () => {
    expect(await names(`${RC}/show`)).to.deep.equal(DEFAULT_READER_CONFIGURATIONS.map((c) => c.name).sort());
    expect(await names(`${RECIPES}/show`)).to.deep.equal(DEFAULT_RECIPES.map((r) => r.name).sort());
    const deep = await app.request('GET', `${RC}/show/IMPINJ_Deep_Scan_Inventory`);
    expect(deep.status).to.equal(200);
    expect(deep.body).to.deep.include({ operation: 'INVENTORY' });
    expect(deep.body.configuration).to.deep.include({ readerMode: 'MAX_MILLER', session: 2, searchMode: 'DUAL_TARGET' });
    const recipe = (await app.request('GET', `${RECIPES}/show/IMPINJ_Deep_Scan_Inventory`)).body;
    expect(recipe).to.deep.include({ type: 'INVENTORY', readerConfigurationName: 'IMPINJ_Deep_Scan_Inventory', tagHeartbeatDuration: 'PT5M', computeWindow: 20, reportingInterval: 5 });
    const configs = (await app.request('GET', CONFIGS)).body as Array<{ id: number; name: string }>;
    expect(configs.map((c) => [c.id, c.name])).to.deep.equal(DEFAULT_ANTENNA_CONFIGURATIONS.map((c) => [c.id, c.name]));
    expect(configs[0]).to.deep.include({ name: 'xArray Overhead', readerType: 'XARRAY', readerArrangement: 'OVERHEAD', in: [{ antennaId: 13 }], out: [{ antennaId: 17 }] });
  });

  it('a new antenna configuration gets the id after the defaults', async () => {
    const created = await app.request('POST', CONFIGS, { body: { name: 'mine', side: 'LEFT', readerType: 'XARRAY', readerArrangement: 'CUSTOM' } });
    expect(created.status).to.equal(200);
    expect(created.body.id).to.equal(DEFAULT_ANTENNA_CONFIGURATIONS.length + 1);
  });

  it('a user defines a reader and starts a job from IMPINJ_Deep_Scan_Inventory without writing a configuration', async () => {
    expect((await app.request('POST', '/configuration/v1/readerDefinitions/create', { body: { name: 'dock', type: 'XARRAY' } })).status).to.equal(200);
    const job = await app.request('POST', `${JOBS}/start`, { body: { name: 'first', recipeName: 'IMPINJ_Deep_Scan_Inventory', startDelay: 'PT0S' } });
    expect(job.status, JSON.stringify(job.body)).to.equal(200);
    expect(job.body.readerNames).to.deep.equal(['dock']);
    expect(job.body.job).to.deep.include({ recipeName: 'IMPINJ_Deep_Scan_Inventory', facility: 'DEFAULT' });
    expect((await app.request('POST', `${JOBS}/stop/${job.body.id}?graceful=false`)).status).to.equal(204);
  });

  it('a default the user deleted or changed stays as the user left it across a restart', async () => {
    expect((await app.request('DELETE', `${RECIPES}/destroy/IMPINJ_Fast_Location`)).status).to.equal(204);
    const changed = { name: 'IMPINJ_Deep_Scan_Location', operation: 'LOCATION', configuration: { readerMode: 'MAX_MILLER', session: 3 } };
    expect((await app.request('PUT', `${RC}/createOrReplace`, { body: changed })).status).to.equal(200);
    await app.stop({ keepRedis: true });
    app = await startTestApp(env);
    expect((await app.request('GET', `${RECIPES}/show/IMPINJ_Fast_Location`)).status).to.equal(404);
    expect((await app.request('GET', `${RC}/show/IMPINJ_Deep_Scan_Location`)).body.configuration.session).to.equal(3);
    expect(await names(`${RECIPES}/show`)).to.deep.equal(DEFAULT_RECIPES.map((r) => r.name).filter((n) => n !== 'IMPINJ_Fast_Location').sort());
  });
});
