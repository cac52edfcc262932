// Upgrade policy end to end with simulated readers: 12 readers of three
// families in one facility, a FACILITY upgrade allowing two of the families
// with maxParallelReaders 3; two readers fail (CHECKSUM, UPGRADE_STATUS), the
// others report their new version. Then an upgrade stopped half-way. Every
// claim about parallelism is checked on the upgrade's events.
import { expect } from 'chai';
import { EventStoreDBClient } from '@eventstore/db-client';
import { readerAgentEvents, readerAgentStream } from '../../src/agents/events';
import { readStream } from '../../src/core/eventstore';
import { silent } from '../support/logger';
import { parseOptions } from '../../src/simulator/options';
import { runSimulation } from '../../src/simulator/run';
import { startTestApp, type TestApp } from '../support/app';
import { finished, maxInProgress, registerImage, upgradeEventsOf, waitForStatus } from './support';
import { sleep } from '../support/wait';

const U = '/control/v1/upgrades';

// Round robin over XARRAY, XSPAN, SPEEDWAY: sim-xarray-1, sim-xspan-2, sim-speedway-3, sim-xarray-4, ...
const XARRAY = ['sim-xarray-1', 'sim-xarray-4', 'sim-xarray-7', 'sim-xarray-10'];
const XSPAN = ['sim-xspan-2', 'sim-xspan-5', 'sim-xspan-8', 'sim-xspan-11'];
const SPEEDWAY = ['sim-speedway-3', 'sim-speedway-6', 'sim-speedway-9', 'sim-speedway-12'];

async function allCheckedIn(app: TestApp, n: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await app.request('GET', '/health/v1/readers');
    const up = (res.body as Array<{ state: string }>).filter((r) => r.state !== 'AWAITING_AGENT').length;
    if (res.status === 200 && up >= n) return;
    if (Date.now() > deadline) throw new Error(`only ${up} of ${n} readers checked in`);
    await sleep(200);
  }
}

describe('upgrade rollout with simulated readers', function () {
  this.timeout(180_000);
  let app: TestApp;
  let abort: AbortController;
  let sim: Promise<unknown>;

  const startSim = (extra: string[]): void => {
    abort = new AbortController();
    const o = parseOptions(['--url', app.baseUrl, '--demo', '--readers', '12', '--families', 'XARRAY,XSPAN,SPEEDWAY', '--tags', '0', '--checkin-seconds', '0.5', '--progress', 'none', ...extra]);
    sim = runSimulation(o, { log: silent, signal: abort.signal });
  };

  beforeEach(async () => {
    app = await startTestApp();
  });
  afterEach(async () => {
    abort?.abort();
    await sim?.catch(() => undefined);
    await app?.stop();
  });

  it('never more than maxParallelReaders at once; other types skipped and reported; failures in the middle; new versions reported', async () => {
    startSim(['--upgrade-seconds', '0.8', '--upgrade-failures', 'sim-xarray-4=CHECKSUM,sim-xspan-8=UPGRADE_STATUS']);
    await allCheckedIn(app, 12);
    await registerImage(app, '8.0.0');
    const start = await app.request('POST', `${U}/start`, {
      body: { target: { type: 'FACILITY', values: ['DEFAULT'] }, versionIdentifier: { version: '8.0.0', imageType: 'FIRMWARE_READER' }, policy: { maxParallelReaders: 3, allowedReaderTypes: ['XARRAY', 'XSPAN'] } },
    });
    expect(start.status, JSON.stringify(start.body)).to.equal(200);
    const id = start.body.upgradeInstanceId as string;
    expect(id).to.be.a('string');

    const list = await app.request('GET', `${U}/show`);
    expect(list.body).to.deep.equal([
      { id, upgradeRequest: { target: { type: 'FACILITY', values: ['DEFAULT'] }, versionIdentifier: { version: '8.0.0', imageType: 'FIRMWARE_READER' }, policy: { maxParallelReaders: 3, allowedReaderTypes: ['XARRAY', 'XSPAN'] } } },
    ]);

    const status = await waitForStatus(app, id, finished);
    expect(status.status).to.equal('FAILED'); // two readers failed
    expect(status.version).to.deep.equal({ version: '8.0.0', imageType: 'FIRMWARE_READER' });
    expect(status.target).to.deep.equal({ type: 'FACILITY', values: ['DEFAULT'] });
    expect(status.elapsedTimeSeconds).to.be.a('number');
    const readers = status.details.readers as Array<{ name: string; status: string; previousVersion: unknown; elapsedTimeSeconds: number; lastUpdatedTime: string }>;
    expect(readers.map((r) => r.name).sort()).to.deep.equal([...XARRAY, ...XSPAN].sort());
    for (const r of readers) {
      expect(Object.keys(r).sort()).to.deep.equal(['elapsedTimeSeconds', 'lastUpdatedTime', 'name', 'previousVersion', 'status']);
      expect(r.previousVersion).to.deep.equal({ version: '7.6.1', imageType: 'FIRMWARE_READER' });
      expect(r.status, r.name).to.equal(r.name === 'sim-xarray-4' || r.name === 'sim-xspan-8' ? 'FAILED' : 'COMPLETED');
    }
    expect(status.details.skippedReaders.map((s: { name: string }) => s.name).sort()).to.deep.equal([...SPEEDWAY].sort());
    for (const s of status.details.skippedReaders) expect(s).to.include({ readerType: 'SPEEDWAY' });
    const failures = new Map((status.details.failedReaders as Array<{ name: string; reason: string }>).map((f) => [f.name, f.reason]));
    expect(failures.get('sim-xarray-4')).to.match(/checksum mismatch/);
    expect(failures.get('sim-xspan-8')).to.match(/upgrade error/);

    const events = await upgradeEventsOf(app, id);
    expect(maxInProgress(events)).to.equal(3);
    expect(events.filter((e) => e.type === 'UpgradeReaderStarted')).to.have.length(8);
    // After the first three, a reader starts only in the decision that finishes another.
    const startedAfterFirstWave = events.filter((e) => e.type === 'UpgradeReaderStarted').slice(3);
    for (const s of startedAfterFirstWave) {
      expect(events.some((e) => e.type === 'UpgradeReaderFinished' && e.data.time === s.data.time), JSON.stringify(s)).to.equal(true);
    }

    // Health: new firmware for the upgraded readers, the old one for the failed; the failures as health events.
    const completed = readers.filter((r) => r.status === 'COMPLETED').map((r) => r.name);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const h = await app.request('GET', '/health/v1/readers');
      const byName = new Map((h.body as Array<{ readerName: string; version: { Firmware: string } | null; state: string }>).map((x) => [x.readerName, x]));
      const ok = completed.every((n) => byName.get(n)?.version?.Firmware === '8.0.0') && byName.get('sim-xarray-4')?.version?.Firmware === '7.6.1';
      if (ok && [...byName.values()].every((x) => x.state !== 'UPDATING_FIRMWARE')) break;
      if (Date.now() > deadline) throw new Error(`health versions not updated: ${JSON.stringify(h.body)}`);
      await sleep(200);
    }
    const search = await app.request('POST', '/health/v1/events', { body: { codes: ['VERSION_UPDATE', 'CHECKSUM', 'UPGRADE_STATUS'], pageSize: 100 } });
    expect(search.status).to.equal(200);
    const byCode = (code: string) => (search.body.events as Array<{ code: string; readerName: string }>).filter((e) => e.code === code).map((e) => e.readerName).sort();
    expect(byCode('VERSION_UPDATE')).to.deep.equal([...completed].sort());
    expect(byCode('CHECKSUM')).to.deep.equal(['sim-xarray-4']);
    expect(byCode('UPGRADE_STATUS')).to.deep.equal(['sim-xspan-8']);

    // Each upgraded reader said UPDATING_FIRMWARE at a check-in while it upgraded.
    const client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    try {
      for (const name of completed) {
        const checkins = (await readStream(client, readerAgentStream(name), readerAgentEvents)).events.filter((e) => e.type === 'AgentCheckedIn');
        expect(checkins.some((e) => e.type === 'AgentCheckedIn' && e.data.state === 'UPDATING_FIRMWARE'), name).to.equal(true);
      }
    } finally {
      await client.dispose();
    }
  });

  it('stop cancels the readers not started; those upgrading finish; the upgrade ends FAILED; stop again is fine, an unknown id 404', async () => {
    startSim(['--upgrade-seconds', '3']);
    await allCheckedIn(app, 12);
    await registerImage(app, '8.1.0');
    const start = await app.request('POST', `${U}/start`, {
      body: { target: { type: 'DEVICE', values: [...XARRAY, ...XSPAN] }, versionIdentifier: { version: '8.1.0', imageType: 'FIRMWARE_READER' }, policy: { maxParallelReaders: 2 } },
    });
    expect(start.status, JSON.stringify(start.body)).to.equal(200);
    const id = start.body.upgradeInstanceId as string;
    const running = await waitForStatus(app, id, (s) => s.details.readers.filter((r: { status: string }) => r.status === 'IN_PROGRESS').length === 2);
    expect(running.status).to.equal('IN_PROGRESS');
    const upgrading = running.details.readers.filter((r: { status: string }) => r.status === 'IN_PROGRESS').map((r: { name: string }) => r.name);

    const stop = await app.request('POST', `${U}/stop/${id}`);
    expect(stop.status).to.equal(204);
    const status = await waitForStatus(app, id, finished);
    expect(status.status).to.equal('FAILED');
    for (const r of status.details.readers as Array<{ name: string; status: string }>) {
      expect(r.status, r.name).to.equal(upgrading.includes(r.name) ? 'COMPLETED' : 'FAILED');
    }
    for (const f of status.details.failedReaders) expect(f.reason).to.match(/cancelled/);
    const events = await upgradeEventsOf(app, id);
    expect(events.filter((e) => e.type === 'UpgradeReaderStarted').map((e) => e.data.readerName).sort()).to.deep.equal([...upgrading].sort());
    expect(maxInProgress(events)).to.equal(2);

    expect((await app.request('POST', `${U}/stop/${id}`)).status).to.equal(204);
    const unknown = await app.request('POST', `${U}/stop/no-such-upgrade`);
    expect(unknown.status).to.equal(404);
    expect((await app.request('GET', `${U}/show/no-such-upgrade`)).status).to.equal(404);
  });
});
