// What the log says at info while readers report: the state changes
// (configuration, every job transition) and a periodic ingestion summary,
// not a line per HTTP request (those are debug). Read back through the
// retained log (GET /support/v1/logs), which keeps info and above.
import { expect } from 'chai';
import { silent } from '../support/logger';
import { parseOptions } from '../../src/simulator/options';
import { runSimulation } from '../../src/simulator/run';
import { startTestApp, type TestApp } from '../support/app';
import { retainedLogLines } from '../support/retained-log';
import { sleep } from '../support/wait';

describe('logs while readers report', function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ LOG_SUMMARY_INTERVAL_MS: '1000' });
  });
  after(async () => app?.stop());

  it('logs configuration changes, every job transition and an ingestion summary at info, and no request lines', async () => {
    const from = new Date(Date.now() - 1000).toISOString();
    // Reader names of our own: nothing else may report for them (the readers role listens on shared brokers).
    const prefix = `logs${Math.random().toString(36).slice(2, 7)}-`;
    const options = parseOptions(['--url', app.baseUrl, '--prefix', prefix, '--demo', '--start-job', '--readers', '2', '--families', 'XARRAY,SPEEDWAY', '--tags', '20', '--duration', '5', '--checkin-seconds', '1', '--progress', 'none']);
    const summary = await runSimulation(options, { log: silent });
    expect(summary.totals.reportsAccepted).to.be.greaterThan(2);

    let lines: Array<Record<string, unknown>> = [];
    const deadline = Date.now() + 15_000;
    // The job's STOPPED transition and the last summary period land a moment after the run.
    while (Date.now() < deadline) {
      lines = await retainedLogLines(app, `?from=${encodeURIComponent(from)}`);
      const stopped = lines.some((l) => l['msg'] === 'job status changed' && l['jobId'] === summary.jobId && l['to'] === 'STOPPED');
      if (stopped && lines.some((l) => l['msg'] === 'ingestion')) break;
      await sleep(300);
    }
    const transitions = lines.filter((l) => l['msg'] === 'job status changed' && l['jobId'] === summary.jobId);
    expect(transitions.map((l) => `${String(l['from'])}>${String(l['to'])}`)).to.deep.equal([
      'NONE>WAITING',
      'WAITING>INITIALIZING',
      'INITIALIZING>STARTING',
      'STARTING>RUNNING',
      'RUNNING>STOPPING',
      'STOPPING>STOPPED',
    ]);
    expect(transitions.find((l) => l['to'] === 'STOPPED')).to.include({ level: 'info', stopReason: 'USER_REQUESTED_ABRUPT', recipe: `${prefix}inventory` });
    expect(lines.filter((l) => l['msg'] === 'configuration changed').map((l) => l['stream'])).to.include.members([`readerDefinition-${prefix}xarray-1`, `recipe-${prefix}inventory`]);
    const ingestion = lines.filter((l) => l['msg'] === 'ingestion');
    // The summaries add up to every report the gateway accepted (the demo's door readers report too).
    const stats = await app.request('GET', '/agent/v1/stats');
    const accepted = (stats.body.readers as Array<{ acceptedReports: number }>).reduce((n, r) => n + r.acceptedReports, 0);
    expect(accepted).to.be.at.least(summary.totals.reportsAccepted);
    expect(ingestion.reduce((n, l) => n + Number(l['reports']), 0)).to.equal(accepted);
    expect(ingestion.reduce((n, l) => n + Number(l['observations']), 0)).to.be.at.least(summary.totals.observations);
    expect(ingestion.some((l) => Number(l['itemsChanged']) > 0)).to.equal(true);
    // Hundreds of check-ins and reports, not one request line at info.
    expect(lines.filter((l) => l['msg'] === 'request')).to.deep.equal([]);
  });
});
