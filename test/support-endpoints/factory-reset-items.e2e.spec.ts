// Factory reset and the item engine: items seen before the reset are gone
// from the read models, the engine forgets them (an EPC seen again after the
// reset starts a new chain from ABSENT), and a restart brings none back.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getUntil, startTestApp, waitForCaughtUp, type TestApp } from '../support/app';
import { HISTORY, ITEMS } from './e2e-support';
import { epc, postReport, startInventoryJob } from '../engine/e2e-support';

describe('support: factory reset and the item engine', function () {
  this.timeout(120_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'tagtrail-reset-items-'));
  const env = { DATA_DIR: dataDir, REDIS_KEY_PREFIX: `tagtrail-test-${crypto.randomUUID()}:`, JOB_STOP_TIMEOUT_SECONDS: '0' };
  let app: TestApp;
  after(async () => {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('forgets every item, in the read models and in the engine, also across a restart', async () => {
    app = await startTestApp(env);
    const before = await startInventoryJob(app);
    await postReport(app, before, Date.now(), 1, [epc(1), epc(2)]);
    await getUntil(app, ITEMS, (b) => b.items?.length === 2, 'two items before the reset');
    expect((await app.request('POST', `/control/v1/jobs/stop/${before.jobId}`)).status).to.be.oneOf([200, 204]);
    await getUntil(app, `/control/v1/jobs/show/${before.jobId}`, (b) => b.status === 'STOPPED', 'job stopped');

    const reset = await app.request('POST', '/support/v1/factoryReset', { body: { confirm: 'FACTORY_RESET' } });
    expect(reset.status, JSON.stringify(reset.body)).to.equal(200);
    expect((await app.request('GET', ITEMS)).body.items).to.deep.equal([]);
    expect((await app.request('GET', HISTORY)).body.history).to.deep.equal([]);

    // Same names again (the reset freed them); epc 1 is read on the SHELF antenna.
    const after = await startInventoryJob(app);
    await postReport(app, after, Date.now(), 2, [epc(1)]);
    const history = await getUntil(app, HISTORY, (b) => b.history?.length === 1, 'one history record after the reset');
    expect(history.history[0]).to.include({ epc: epc(1), fromZone: 'ABSENT', toZone: 'SHELF' });

    await app.stop({ keepRedis: true });
    app = await startTestApp(env);
    await waitForCaughtUp(app);
    const items = (await app.request('GET', ITEMS)).body.items as Array<{ epc: string }>;
    expect(items.map((i) => i.epc)).to.deep.equal([epc(1)]);
    expect((await app.request('GET', HISTORY)).body.history).to.have.length(1);
  });
});
