// The simulator examples of README.md, run as written but faster, one after
// the other against one service, show what the README promises: the first
// fills every zone of the demo world, without tags bouncing between readers; the second (a scenario with a LOCATION
// job) gets its job RUNNING on its own readers although the first run's
// readers are still defined, sees the dock phase, the reader outage as
// NOT_RESPONDING, and the sold item and the one that left become ABSENT.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { silent } from '../support/logger';
import { parseOptions } from '../../src/simulator/options';
import { runSimulation } from '../../src/simulator/run';
import { startTestApp, type TestApp } from '../support/app';

/** The `npm run simulate -- ...` lines of the README's Simulator section, as argument lists. */
function readmeSimulatorExamples(): string[][] {
  const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Simulator'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block
    .split('\n')
    .filter((l) => l.startsWith('npm run simulate -- ') && !l.includes('--help'))
    .map((l) => l.slice('npm run simulate -- '.length).trim().split(/\s+/));
}

interface HistoryRecord {
  epc: string;
  fromZone: string;
  toZone: string;
  observationTime: string;
}

/** Every history record of the facility, oldest first. */
async function allHistory(app: TestApp): Promise<HistoryRecord[]> {
  const out: HistoryRecord[] = [];
  let marker: string | null = null;
  do {
    const query: string = marker === null ? '' : `&pageMarker=${encodeURIComponent(marker)}`;
    const res = await app.request('GET', `/data/v1/items/show/history?pageSize=1000${query}`);
    expect(res.status).to.equal(200);
    out.push(...(res.body.history as HistoryRecord[]));
    marker = res.body.nextPageMarker ?? null;
  } while (marker !== null);
  return out;
}

async function history(app: TestApp, epc: string): Promise<HistoryRecord[]> {
  const res = await app.request('GET', `/data/v1/items/show/history?epcPrefix=${epc}&pageSize=1000`);
  expect(res.status).to.equal(200);
  return res.body.history as HistoryRecord[];
}

describe('README simulator examples, at high speed', function () {
  this.timeout(180_000);
  let app: TestApp;

  before(async () => {
    // Check-ins every second: a reader is NOT_RESPONDING after 3 s of silence.
    app = await startTestApp({ HEALTH_CHECKIN_INTERVAL_SECONDS: '1' });
  });
  after(async () => {
    await app?.stop();
  });

  it('the README shows two examples: a generated demo and a scenario at 4x', () => {
    const [first, second] = readmeSimulatorExamples();
    expect(first).to.include.members(['--demo', '--start-job', '--duration']);
    expect(second).to.include.members(['--scenario', 'examples/scenarios/demo.json', '--recipe', 'sim-location', '--time-scale', '4']);
  });

  it('first example: tags show up in every zone of the demo world and do not bounce between readers', async () => {
    const [first] = readmeSimulatorExamples();
    const options = parseOptions([...first!, '--url', app.baseUrl, '--progress', 'none', '--duration', '12']);
    const summary = await runSimulation(options, { log: silent });
    expect(summary.lastErrors, summary.lastErrors.join('\n')).to.deep.equal([]);
    expect(summary.totals.reportsAccepted).to.be.greaterThan(0);
    const map = await app.request('GET', '/control/v1/currentZoneMap/show/DEFAULT');
    const zones = new Set((map.body.zones as Array<{ name: string }>).map((z) => z.name));
    const items = await app.request('GET', '/data/v1/items/show?pageSize=1000');
    expect(items.status).to.equal(200);
    const occupied = new Set((items.body.items as Array<{ zone: string }>).map((i) => i.zone));
    expect([...zones].filter((z) => !occupied.has(z)), `zones without items (occupied: ${[...occupied].join(', ')})`).to.deep.equal([]);

    // Tags between two readers do not bounce: a zone change undone within 4 s is rare.
    const all = await allHistory(app);
    const zoneChanges = all.filter((r) => r.fromZone !== 'ABSENT' && r.toZone !== 'ABSENT');
    const bounces = zoneChanges.filter((r, i) => {
      const prev = zoneChanges.slice(0, i).reverse().find((p) => p.epc === r.epc);
      return prev !== undefined && prev.fromZone === r.toZone && prev.toZone === r.fromZone && Date.parse(r.observationTime) - Date.parse(prev.observationTime) <= 4_000;
    });
    expect(all.length).to.be.greaterThan(20);
    expect(bounces.length, `${bounces.length} of ${all.length} history records bounce back within 4 s`).to.be.at.most(Math.ceil(all.length * 0.03));
  });

  it('second example, right after the first: its own job runs, and the story is told (dock, outage, sale, exit)', async () => {
    const [, second] = readmeSimulatorExamples();
    // 6x instead of 4x: the same story in two thirds of the time (the dock phase still spans a few 1 s reports).
    const options = parseOptions([...second!, '--url', app.baseUrl, '--progress', 'none', '--time-scale', '6']);
    const summary = await runSimulation(options, { log: silent });
    expect(summary.lastErrors, summary.lastErrors.join('\n')).to.deep.equal([]);

    // The job took this run's readers only (the first run's are still defined) and ran.
    const job = await app.request('GET', `/control/v1/jobs/show/${summary.jobId}`);
    expect(job.body.readerNames.slice().sort()).to.deep.equal(['demo-xarray-receiving', 'demo-xarray-storage', 'demo-xspan-sales']);
    expect(job.body.failedReaderNames).to.deep.equal([]);
    expect(job.body.status).to.equal('STOPPED');
    expect(summary.totals.reportsAccepted).to.be.greaterThan(10);

    // The delivery starts at the dock.
    const first = await history(app, 'E28011606000020000000001');
    expect(first[0], JSON.stringify(first)).to.include({ fromZone: 'ABSENT', toZone: 'Dock' });
    expect(first.map((r) => r.toZone)).to.include.members(['Receiving', 'Storage']);
    // The sold item (leaves at 80 s) and the one taken out (60 s) become ABSENT.
    for (const epc of ['E28011606000020000000002', '3034257BF400B7800004CB2F']) {
      const h = await history(app, epc);
      expect(h.at(-1)?.toZone, `${epc}: ${JSON.stringify(h)}`).to.equal('ABSENT');
    }
    // The sold item went the whole way before.
    expect((await history(app, 'E28011606000020000000002')).map((r) => r.toZone)).to.include.members(['Dock', 'Receiving', 'SalesFloor']);
    // The storage reader's outage is seen, and its return.
    const events = await app.request('POST', '/health/v1/events', { body: { readerNames: ['demo-xarray-storage'] } });
    const codes = (events.body.events as Array<{ code: string }>).map((e) => e.code);
    expect(codes).to.include.members(['NOT_RESPONDING', 'RESPONDING']);
  });
});
