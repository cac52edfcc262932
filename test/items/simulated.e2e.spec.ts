// The whole pipeline as a client sees it: simulated readers report through
// the agent API, the engine turns reports into item changes, the read models
// serve them over the items and history queries.
import { expect } from 'chai';
import { silent } from '../support/logger';
import { parseOptions } from '../../src/simulator/options';
import { runSimulation } from '../../src/simulator/run';
import { startTestApp, type TestApp } from '../support/app';
import { waitFor } from '../support/wait';

describe('simulated readers to item data', function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app?.stop());

  it('reports become items and history, every history chain starting at ABSENT', async () => {
    const options = parseOptions(['--url', app.baseUrl, '--demo', '--start-job', '--readers', '2', '--families', 'SPEEDWAY,XPORTAL', '--tags', '12', '--seed', '11', '--duration', '8', '--checkin-seconds', '1', '--progress', 'none']);
    const summary = await runSimulation(options, { log: silent });
    expect(summary.totals.reportsAccepted).to.be.greaterThan(0);
    expect(summary.totals.observations).to.be.greaterThan(0);

    const items = await waitFor('items from the simulated reports', async () => {
      const res = await app.request('GET', '/data/v1/items/show?pageSize=1000');
      expect(res.status).to.equal(200);
      return res.body.items.length > 0 ? (res.body.items as Array<{ epc: string; zone: string; jobId: string; facility: string }>) : undefined;
    }, { timeoutMs: 15_000, intervalMs: 250 });
    for (const item of items) {
      expect(item.epc).to.match(/^[0-9A-F]+$/);
      expect(item.zone).to.be.a('string').and.not.equal('');
      expect(item.jobId).to.equal(summary.jobId);
    }

    const history = await app.request('GET', '/data/v1/items/show/history?pageSize=1000');
    expect(history.status).to.equal(200);
    const records = history.body.history as Array<{ epc: string; fromZone: string; toZone: string }>;
    expect(records.length).to.be.at.least(items.length);
    const firstByEpc = new Map<string, { fromZone: string }>();
    for (const r of records) if (!firstByEpc.has(r.epc)) firstByEpc.set(r.epc, r);
    for (const item of items) expect(firstByEpc.get(item.epc)?.fromZone, item.epc).to.equal('ABSENT');
    for (const r of records) expect(r.fromZone, `${r.epc} ${r.fromZone}->${r.toZone}`).to.not.equal(r.toZone);
  });
});
