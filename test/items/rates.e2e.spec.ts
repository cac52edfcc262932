// Per-second rates read from the read models' time indexes: item changes
// (history records) and reader health events, counted at the second they
// happened, whenever the client asks.
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app';
import { appendWithHistory, changes, epc } from '../console/item-fixtures';
import { waitForValue } from '../support/wait';

describe('rates over HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(async () => app?.stop());

  it('counts item changes at the second they were observed, the newest second last', async () => {
    const now = Date.now();
    const second = (ago: number): number => (Math.floor(now / 1000) - ago) * 1000 + 250;
    // 7 changes 10 s ago, 3 changes 4 s ago, all reported to history.
    await appendWithHistory(app, [...changes('RatesHall', 'E3A0', 0, 7, 'FIRST_SEEN', second(10), () => ({ x: 1, y: 1 })), ...changes('RatesHall', 'E3A1', 0, 3, 'FIRST_SEEN', second(4), () => ({ x: 2, y: 2 }))]);
    await waitForValue('history projected', async () => (await app.request('GET', `/data/v1/items/show/history?epcPrefix=${epc('E3A1', 2)}`)).body?.history?.length, (n) => n === 1, { timeoutMs: 30_000, intervalMs: 200 });
    const res = await app.request('GET', '/data/v1/items/show/rates?seconds=60');
    expect(res.status).to.equal(200);
    const { to, perSecond } = res.body as { to: string; perSecond: number[] };
    expect(perSecond).to.have.length(60);
    // Index of the second that began `ago` seconds before the second of `now`, counted from the answer's end.
    const at = (ago: number): number => perSecond[perSecond.length - 1 - (Date.parse(to) / 1000 - 1 - (Math.floor(now / 1000) - ago))]!;
    expect([at(10), at(4)]).to.deep.equal([7, 3]);
    expect(perSecond.reduce((a, b) => a + b, 0)).to.equal(10);
  });

  it('answers health events per second, and refuses a bad window naming query.seconds', async () => {
    const ok = await app.request('GET', '/health/v1/events/rates?seconds=5');
    expect(ok.status).to.equal(200);
    expect(ok.body.perSecond).to.deep.equal([0, 0, 0, 0, 0]);
    for (const bad of ['0', '3601', 'ten']) {
      const res = await app.request('GET', `/health/v1/events/rates?seconds=${bad}`);
      expect(res.status).to.equal(400);
      expect(res.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['query.seconds']);
    }
  });
});
