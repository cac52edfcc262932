// POST /support/v1/itemReset end to end: two facilities, each with an
// INVENTORY job on its own reader; resetting one forgets its items in the
// read model and in the engine (also across a restart that restores the
// engine from a snapshot taken before the reset), keeps its history unless
// clearHistory, and leaves the other facility alone. Bad input appends nothing.
import { EventStoreDBClient, StreamNotFoundError } from '@eventstore/db-client';
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentAuthorization } from '../../src/agents/guard';
import { ITEM_RESET_STREAM } from '../../src/support/events';
import { startTestApp, type TestApp } from '../support/app';
import { epc, postReport, startInventoryJob, type RunningJob } from '../engine/e2e-support';
import { expectStatus } from '../readerconfigurations/e2e-support';

const RESET = '/support/v1/itemReset';
const ITEMS = '/data/v1/items/show';
const HISTORY = '/data/v1/items/show/history';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Item { epc: string; zone: string; facility: string }
interface HistoryRecord { epc: string; fromZone: string; toZone: string; toFacility: string }

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function until(app: TestApp, path: string, ok: (body: any) => boolean, what: string): Promise<any> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await app.request('GET', path);
    if (res.status === 200 && ok(res.body)) return res.body;
    if (Date.now() > deadline) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    await sleep(100);
  }
}

/** An INVENTORY job of recipe `rec` (created by startInventoryJob) in facility `facility` on reader `reader` (antenna 1 = DOCK). */
async function startJobIn(app: TestApp, facility: string, reader: string): Promise<RunningJob> {
  expectStatus(await app.request('POST', '/configuration/v1/facilities/create', { body: { name: facility } }), 200);
  expectStatus(await app.request('POST', '/configuration/v1/readerDefinitions/create', { body: { name: reader, facility, antennaZones: { '1': 'DOCK' } } }), 200);
  const job = await app.request('POST', '/control/v1/jobs/start', { body: { name: `engine-${facility}`, recipeName: 'rec', facility, startDelay: 'PT0S' } });
  expectStatus(job, 200);
  const jobId = job.body.id as string;
  const agent = `/agent/v1/readers/${reader}`;
  const issued = await app.request('PUT', `${agent}/secret`);
  expectStatus(issued, 200);
  const auth = agentAuthorization(reader, issued.body.secret as string);
  for (let i = 0; ; i++) {
    const res = await app.request('POST', `${agent}/checkin`, { auth, body: { agentId: `agent-${reader}`, versions: { App: '1.0.0', Firmware: '7.6.1' }, state: 'IDLE' } });
    expectStatus(res, 200);
    if (res.body.assignment?.jobId === jobId) break;
    if (i > 100) throw new Error(`no assignment: ${JSON.stringify(res.body)}`);
    await sleep(100);
  }
  const ack = await app.request('POST', `${agent}/assignments/${jobId}/ack`, { auth });
  expect(ack.status, JSON.stringify(ack.body)).to.be.oneOf([200, 204]);
  return { jobId, auth };
}

/** Like postReport, for a job on another reader. */
async function postReportOn(app: TestApp, reader: string, job: RunningJob, t: number, epcs: string[]): Promise<void> {
  const at = new Date(t).toISOString();
  const observations = epcs.map((e) => ({ epc: e, tid: null, antennaId: 1, peakRssi: -60, readCount: 2, firstSeen: at, lastSeen: at, x: null, y: null }));
  const res = await app.request('POST', `/agent/v1/readers/${reader}/reports`, { auth: job.auth, body: { reportId: crypto.randomUUID(), jobId: job.jobId, from: at, to: at, observations } });
  expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 202, 204]);
}

describe('support: item reset', function () {
  this.timeout(180_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'tagtrail-item-reset-'));
  // A snapshot after every append: the restart below restores one taken before the reset.
  const env = { DATA_DIR: dataDir, REDIS_KEY_PREFIX: `tagtrail-test-${crypto.randomUUID()}:`, ENGINE_SNAPSHOT_EVERY_CHANGES: '1' };
  let app: TestApp;
  after(async () => {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const items = async (): Promise<Item[]> => ((await app.request('GET', ITEMS)).body.items as Item[]).sort((a, b) => (a.epc < b.epc ? -1 : 1));
  const history = async (): Promise<HistoryRecord[]> => (await app.request('GET', HISTORY)).body.history as HistoryRecord[];

  it('forgets the items of one facility, keeps its history unless clearHistory, leaves the other facility alone, also across a restart', async () => {
    app = await startTestApp(env);
    const a = await startInventoryJob(app); // facility DEFAULT, reader dock-1
    const b = await startJobIn(app, 'B', 'dock-2');
    await postReport(app, a, Date.now(), 1, [epc(1), epc(2)]);
    await postReportOn(app, 'dock-2', b, Date.now(), [epc(3)]);
    await until(app, ITEMS, (body) => body.items?.length === 3, 'three items');
    await until(app, HISTORY, (body) => body.history?.length === 3, 'three history records');

    // Bad input: 400/404 naming the field, nothing appended.
    const missing = await app.request('POST', RESET, { body: {} });
    expect(missing.status).to.equal(400);
    expect(missing.body.errors.map((e: { path: string }) => e.path)).to.include('body.facility');
    const badFlag = await app.request('POST', RESET, { body: { facility: 'DEFAULT', clearHistory: 'yes' } });
    expect(badFlag.status).to.equal(400);
    expect(badFlag.body.errors.map((e: { path: string }) => e.path)).to.include('body.clearHistory');
    const unknown = await app.request('POST', RESET, { body: { facility: 'nowhere' } });
    expect(unknown.status).to.equal(404);
    expect(unknown.body.errors).to.deep.equal([{ path: 'body.facility', reason: 'unknown facility "nowhere"', message: unknown.body.errors[0].message }]);
    const client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    try {
      let appended = 0;
      try {
        for await (const _ of client.readStream(ITEM_RESET_STREAM)) appended++;
      } catch (err) {
        if (!(err instanceof StreamNotFoundError)) throw err;
      }
      expect(appended, 'events on support-itemReset after bad requests').to.equal(0);
    } finally {
      await client.dispose();
    }

    // Reset of DEFAULT: its items go, B's stays, history is kept.
    const reset = await app.request('POST', RESET, { body: { facility: 'DEFAULT' } });
    expect(reset.status, JSON.stringify(reset.body)).to.equal(202);
    expect(reset.body).to.include({ facility: 'DEFAULT', clearHistory: false });
    await until(app, ITEMS, (body) => body.items?.length === 1, 'only B left');
    expect((await items()).map((i) => [i.epc, i.facility, i.zone])).to.deep.equal([[epc(3), 'B', 'DOCK']]);
    expect(await history()).to.have.length(3);

    // A restart (engine restored from a snapshot taken before the reset, then the reset replayed) brings nothing back.
    await app.stop({ keepRedis: true });
    app = await startTestApp(env);
    await sleep(1000);
    expect((await items()).map((i) => i.epc)).to.deep.equal([epc(3)]);

    // epc 1 read again in DEFAULT: a new chain from ABSENT (the engine forgot it too).
    await postReport(app, a, Date.now(), 2, [epc(1)]);
    const after = await until(app, HISTORY, (body) => body.history?.length === 4, 'a fourth history record');
    const reread = (after.history as HistoryRecord[]).filter((r) => r.epc === epc(1));
    expect(reread.map((r) => `${r.fromZone}>${r.toZone}`)).to.deep.equal(['ABSENT>DOCK', 'ABSENT>SHELF']);
    expect((await items()).map((i) => [i.epc, i.zone])).to.deep.equal([[epc(1), 'SHELF'], [epc(3), 'DOCK']]);

    // clearHistory: DEFAULT's history records go too, B's stay.
    const clearing = await app.request('POST', RESET, { body: { facility: 'DEFAULT', clearHistory: true } });
    expect(clearing.status, JSON.stringify(clearing.body)).to.equal(202);
    const cleared = await until(app, HISTORY, (body) => body.history?.length === 1, "only B's history record");
    expect((cleared.history as HistoryRecord[]).map((r) => [r.epc, r.toFacility, r.fromZone, r.toZone])).to.deep.equal([[epc(3), 'B', 'ABSENT', 'DOCK']]);
    expect((await items()).map((i) => i.epc)).to.deep.equal([epc(3)]);
  });
});
