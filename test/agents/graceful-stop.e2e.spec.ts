// A graceful stop keeps the reader's last interval: while the job is
// STOPPING (readers learn of the stop at their next check-in) its readers'
// reports are still taken and placed; once it is STOPPED they are refused.
import { expect } from 'chai';
import { readStream } from '../../src/core/eventstore';
import { EventStoreDBClient } from '@eventstore/db-client';
import { ENGINE_STREAM, itemEvents } from '../../src/engine';
import { startTestApp, type TestApp } from '../support/app';
import { waitForValue } from '../support/wait';
import { expectStatus } from '../readerconfigurations/e2e-support';
import { epc, eventually, JOBS, startLiveJob } from '../engine/live-job';

describe('reports during a graceful stop', function () {
  this.timeout(120_000);
  let app: TestApp;
  let client: EventStoreDBClient | undefined;
  after(async () => {
    await client?.dispose();
    await app?.stop();
  });

  it('are taken and placed while the job is STOPPING, refused once it is STOPPED', async () => {
    app = await startTestApp({ JOB_STOP_TIMEOUT_SECONDS: '3' });
    client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    const job = await startLiveJob(app, { type: 'INVENTORY', readers: [{ name: 'g1' }] });
    await job.report('g1', [{ epc: epc(1) }]);
    expectStatus(await app.request('POST', `${JOBS}/stop/${job.jobId}`), 204);
    expect((await app.request('GET', `${JOBS}/show/${job.jobId}`)).body.status).to.equal('STOPPING');
    await job.report('g1', [{ epc: epc(2) }]); // the last interval: 2xx, or the helper fails
    const placed = await waitForValue(
      'the last interval placed',
      async () => (await readStream(client!, ENGINE_STREAM, itemEvents)).events.flatMap((e) => e.data.changes).map((c) => c.epc),
      (epcs) => epcs.includes(epc(2)),
    );
    expect(placed).to.include(epc(1));
    await eventually('job stopped', async () => (await app.request('GET', `${JOBS}/show/${job.jobId}`)).body?.status, (s) => s === 'STOPPED');
    const late = await job.report('g1', [{ epc: epc(3) }]).then(() => 'taken', (err: Error) => err.message);
    expect(late).to.match(/409/).and.match(/NOT_ASSIGNED|no STARTING, RUNNING or STOPPING job/);
  });
});
