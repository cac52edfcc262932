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
import { ITEM_RESET_STREAM } from '../../src/engine/item-reset';
import { getUntil, startTestApp, waitForCaughtUp, type TestApp } from '../support/app';
import { acceptJob, epc, postReport, startInventoryJob, type RunningJob } from '../engine/e2e-support';
import { expectStatus } from '../readerconfigurations/e2e-support';
import { HISTORY, ITEMS } from './e2e-support';

const RESET = '/support/v1/itemReset';

interface Item { epc: string; zone: string; facility: string }
interface HistoryRecord { epc: string; fromZone: string; toZone: string; toFacility: string }

/** An INVENTORY job of recipe `rec` (created by startInventoryJob) in facility `facility` on reader `reader` (antenna 1 = DOCK). */
async function startJobIn(app: TestApp, facility: string, reader: string): Promise<RunningJob> {
  expectStatus(await app.request('POST', '/configuration/v1/facilities/create', { body: { name: facility } }), 200);
  expectStatus(await app.request('POST', '/configuration/v1/readerDefinitions/create', { body: { name: reader, facility, antennaZones: { '1': 'DOCK' } } }), 200);
  const job = await app.request('POST', '/control/v1/jobs/start', { body: { name: `engine-${facility}`, recipeName: 'rec', facility, startDelay: 'PT0S' } });
  expectStatus(job, 200);
  return acceptJob(app, reader, job.body.id as string);
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
    await postReport(app, b, Date.now(), 1, [epc(3)], -60, 'dock-2');
    await getUntil(app, ITEMS, (body) => body.items?.length === 3, 'three items');
    await getUntil(app, HISTORY, (body) => body.history?.length === 3, 'three history records');

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
    await getUntil(app, ITEMS, (body) => body.items?.length === 1, 'only B left');
    expect((await items()).map((i) => [i.epc, i.facility, i.zone])).to.deep.equal([[epc(3), 'B', 'DOCK']]);
    expect(await history()).to.have.length(3);

    // A restart (engine restored from a snapshot taken before the reset, then the reset replayed) brings nothing back.
    await app.stop({ keepRedis: true });
    app = await startTestApp(env);
    await waitForCaughtUp(app);
    expect((await items()).map((i) => i.epc)).to.deep.equal([epc(3)]);

    // epc 1 read again in DEFAULT: a new chain from ABSENT (the engine forgot it too).
    await postReport(app, a, Date.now(), 2, [epc(1)]);
    const after = await getUntil(app, HISTORY, (body) => body.history?.length === 4, 'a fourth history record');
    const reread = (after.history as HistoryRecord[]).filter((r) => r.epc === epc(1));
    expect(reread.map((r) => `${r.fromZone}>${r.toZone}`)).to.deep.equal(['ABSENT>DOCK', 'ABSENT>SHELF']);
    expect((await items()).map((i) => [i.epc, i.zone])).to.deep.equal([[epc(1), 'SHELF'], [epc(3), 'DOCK']]);

    // clearHistory: DEFAULT's history records go too, B's stay.
    const clearing = await app.request('POST', RESET, { body: { facility: 'DEFAULT', clearHistory: true } });
    expect(clearing.status, JSON.stringify(clearing.body)).to.equal(202);
    const cleared = await getUntil(app, HISTORY, (body) => body.history?.length === 1, "only B's history record");
    expect((cleared.history as HistoryRecord[]).map((r) => [r.epc, r.toFacility, r.fromZone, r.toZone])).to.deep.equal([[epc(3), 'B', 'ABSENT', 'DOCK']]);
    expect((await items()).map((i) => i.epc)).to.deep.equal([epc(3)]);
  });
});
