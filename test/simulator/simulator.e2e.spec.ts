// The simulator against the whole service: demo configuration over REST,
// a job started, simulated readers check in, acknowledge, report; the job
// is stopped at the end. Skipped (with the reason) only while the service
// has no /agent/v1 routes (the agent gateway not registered yet).
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silent } from '../support/logger';
import { parseOptions } from '../../src/simulator/options';
import { runSimulation, type Summary } from '../../src/simulator/run';
import { startTestApp, type TestApp } from '../support/app';
import { sleep, waitFor, waitForValue } from '../support/wait';

async function agentApiPresent(app: TestApp): Promise<boolean> {
  const doc = await app.request('GET', '/openapi.json', { auth: null });
  return Object.keys((doc.body?.paths ?? {}) as Record<string, unknown>).some((p) => p.startsWith('/agent/v1/'));
}

/** The job's stats once the jobs projection has caught up with what the simulator saw accepted. */
async function jobStats(app: TestApp, jobId: string, reports: number): Promise<{ reports: number; observations: number; itemsSeen: number }> {
  const read = async (): Promise<{ reports: number; observations: number; itemsSeen: number }> => {
    const res = await app.request('GET', `/control/v1/jobs/stats/${jobId}`);
    expect(res.status).to.equal(200);
    return res.body;
  };
  return waitForValue(`the stats of job ${jobId} to count ${reports} reports`, read, (s) => s.reports >= reports, { timeoutMs: 5000, intervalMs: 100 });
}

describe('reader simulator end to end', function () {
  this.timeout(120_000);
  let app: TestApp;

  beforeEach(async function () {
    // Check-ins expected every second, so that a reader is NOT_RESPONDING after 3 s of silence.
    app = await startTestApp({ HEALTH_CHECKIN_INTERVAL_SECONDS: '1' });
    if (!(await agentApiPresent(app))) {
      await app.stop();
      this.skip(); // the agent gateway (src/agents, /agent/v1) is not registered in src/app/slices.ts yet
    }
  });
  afterEach(async () => app?.stop());

  it('--demo --start-job: readers check in, acknowledge, reports are accepted and counted, a feature change goes end to end, the job stops', async () => {
    const options = parseOptions(['--url', app.baseUrl, '--demo', '--start-job', '--readers', '3', '--families', 'XARRAY,SPEEDWAY,XPORTAL', '--tags', '30', '--seed', '7', '--duration', '9', '--checkin-seconds', '1', '--progress', 'none']);
    const running = runSimulation(options, { log: silent });
    await waitFor('the demo reader definition', async () => (await app.request('GET', '/configuration/v1/readerDefinitions/show/sim-xarray-1')).status === 200);
    const fc = await app.request('POST', '/configuration/v1/readerDefinitions/sim-xarray-1/featureChanges', { body: { feature: 'ANTENNA_HUB', action: 'ENABLE' } });
    expect(fc.status, JSON.stringify(fc.body)).to.equal(202);
    const summary: Summary = await running;
    expect(summary.lastErrors, summary.lastErrors.join('\n')).to.deep.equal([]);
    expect(summary.totals.featureChanges).to.equal(1);
    const feature = await app.request('GET', '/configuration/v1/readerDefinitions/sim-xarray-1/featureChanges/ANTENNA_HUB');
    expect(feature.body).to.include({ status: 'ENABLED', requestStatus: 'IDLE' });
    expect(summary.jobId).to.be.a('string');
    expect(summary.readers).to.equal(3);
    expect(summary.totals.checkins).to.be.at.least(3 * 5);
    expect(summary.totals.reportsAccepted).to.be.greaterThan(3);
    expect(summary.totals.observations).to.be.greaterThan(0);
    expect(summary.totals.reportsRefused).to.equal(0);

    const js = await jobStats(app, summary.jobId!, summary.totals.reportsAccepted);
    expect(js).to.include({ reports: summary.totals.reportsAccepted, observations: summary.totals.observations });
    expect(js.itemsSeen).to.be.within(1, 30);

    // Its readers have stopped, so the simulator stops the job at once: the readers are free for the next run.
    const job = await app.request('GET', `/control/v1/jobs/show/${summary.jobId}`);
    expect(job.status).to.equal(200);
    expect(job.body.status).to.equal('STOPPED');
    expect(job.body.stopReason).to.equal('USER_REQUESTED_ABRUPT');
    expect([...job.body.readerNames].sort()).to.deep.equal(['sim-speedway-2', 'sim-xarray-1', 'sim-xportal-3']);
    expect(job.body.failedReaderNames).to.deep.equal([]);

    const stats = await app.request('GET', '/agent/v1/stats');
    expect(stats.status).to.equal(200);
    // The demo door's reader runs a THRESHOLD job of its own (test/simulator/door.e2e.spec.ts): only the zone readers here.
    const accepted = (stats.body.readers as Array<{ readerName: string; acceptedReports: number }>).filter((r) => r.readerName !== 'sim-door-overhead').reduce((a, r) => a + r.acceptedReports, 0);
    expect(accepted).to.equal(summary.totals.reportsAccepted);

    const health = await app.request('GET', '/health/v1/readers');
    expect(health.status).to.equal(200);
    expect((health.body as Array<{ readerName: string }>).map((h) => h.readerName)).to.include.members(['sim-xarray-1', 'sim-speedway-2', 'sim-xportal-3']);
  });

  it('plays examples/scenarios/demo.json with a LOCATION job and faults: location readers report, health events are stored', async () => {
    const options = parseOptions(['--url', app.baseUrl, '--demo', '--scenario', 'examples/scenarios/demo.json', '--start-job', '--recipe', 'sim-location', '--time-scale', '4', '--duration', '8', '--checkin-seconds', '1', '--faults', 'network=0.3,dropped-reads=0.2,ntp=0.1', '--progress', 'none', '--seed', '3']);
    const summary = await runSimulation(options, { log: silent });
    expect(summary.lastErrors, summary.lastErrors.join('\n')).to.deep.equal([]);
    expect(summary.readers).to.equal(5);
    const reading = Object.entries(summary.perReader).filter(([, c]) => c.reportsAccepted > 0).map(([n]) => n).sort();
    expect(reading).to.deep.equal(['demo-xarray-receiving', 'demo-xarray-storage', 'demo-xspan-sales']); // portal and speedway: DO_NOTHING in a LOCATION recipe
    expect(summary.totals.healthEvents).to.be.greaterThan(0);
    // Network faults resend reports with the same reportId: each is stored once.
    expect(summary.totals.reportsRetried).to.be.greaterThan(0);
    const js = await jobStats(app, summary.jobId!, summary.totals.reportsAccepted);
    expect(js.reports).to.equal(summary.totals.reportsAccepted);
    const events = await app.request('POST', '/health/v1/events', { body: { readerNames: ['demo-xarray-receiving', 'demo-xarray-storage', 'demo-xspan-sales'] } });
    expect(events.status).to.equal(200);
    expect(events.body.events.length).to.be.greaterThan(0);
  });

  it('a scripted not-responding fault: the service marks the reader NOT_RESPONDING while silent and RESPONDING after', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-scenario-'));
    const file = join(dir, 'silent.json');
    writeFileSync(file, JSON.stringify({
      name: 'silent reader',
      zones: [{ name: 'A', floor: '1', points: [{ x: 0, y: 0 }, { x: 10, y: 10 }] }],
      readers: [{ name: 'quiet-1', family: 'SPEEDWAY', placement: { x: 5, y: 5, floor: '1' } }, { name: 'chatty-1', family: 'SPEEDWAY', placement: { x: 5, y: 5, floor: '1' } }],
      tags: [{ epc: 'E200000000000000000000AA' }],
      timeline: [{ epc: 'E200000000000000000000AA', at: 0, zone: 'A' }],
      faults: [{ reader: 'quiet-1', at: 4, fault: 'not-responding', seconds: 10 }],
    }));
    try {
      // The silence starts 4 s in (a loaded machine may take seconds before the first check-in) and lasts 10 s.
      const options = parseOptions(['--url', app.baseUrl, '--demo', '--scenario', file, '--duration', '18', '--checkin-seconds', '1', '--progress', 'none']);
      const running = runSimulation(options, { log: silent });
      const seen = new Set<string>();
      for (let i = 0; i < 80 && !seen.has('NOT_RESPONDING'); i++) {
        await sleep(200);
        const quiet = await app.request('GET', '/health/v1/readers/quiet-1');
        if (quiet.status === 200) seen.add(quiet.body.state);
        if (quiet.body?.state === 'NOT_RESPONDING') expect((await app.request('GET', '/health/v1/readers/chatty-1')).body.state).to.equal('IDLE');
      }
      expect([...seen]).to.include('NOT_RESPONDING');
      const summary = await running;
      expect(summary.lastErrors, summary.lastErrors.join('\n')).to.deep.equal([]);
      expect((await app.request('GET', '/health/v1/readers/quiet-1')).body.state).to.equal('IDLE');
      let codes: string[] = [];
      for (let i = 0; i < 30 && !codes.includes('RESPONDING'); i++) {
        const events = await app.request('POST', '/health/v1/events', { body: { readerNames: ['quiet-1'] } });
        codes = (events.body.events as Array<{ code: string }>).map((e) => e.code);
        if (!codes.includes('RESPONDING')) await sleep(200);
      }
      expect(codes).to.include.members(['NOT_RESPONDING', 'RESPONDING']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
