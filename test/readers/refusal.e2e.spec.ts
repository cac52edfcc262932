// A batch an LLRP reader's link could not store before the reader's job
// ended is refused for good (the reader is in no job any more: NOT_ASSIGNED):
// the link drops it in the open, one 'tag reads dropped' warning with its
// count, and counts its reads in tagtrail_reader_reads_dropped_total. The
// recipe's reporting interval is a minute, so the reads the test sends are
// still held by the link when the job stops.
import { expect } from 'chai';
import { generateLayout } from '../../src/simulator/layout';
import { SimLlrpReader } from '../../src/simulator/llrp-reader';
import { World } from '../../src/simulator/world';
import { metrics } from '../../src/core/metrics';
import { captureLogs, type CapturedLogs } from '../support/log-capture';
import { appWithEnv, mustOf, storedObservations, until } from './support';
import { silent } from '../support/logger';

const READS = 12;

describe('reader connections: a batch refused because the job ended', function () {
  this.timeout(120_000);
  const app = appWithEnv({ READERS_KEEPALIVE_SECONDS: '1', JOB_ACK_TIMEOUT_SECONDS: '60' });
  const layout = generateLayout({ facility: 'DEFAULT', readers: 1, families: ['SPEEDWAY'], tags: 0, seed: 12, prefix: `rf-${Date.now().toString(36)}-` });
  let sim: SimLlrpReader | undefined;
  let logs: CapturedLogs | undefined;
  after(async () => {
    logs?.restore();
    await sim?.close();
  });

  it('is dropped, logged with its count and counted', async () => {
    // No tags in its world and an hour between radio windows: the reader sends only what the test gives it.
    sim = new SimLlrpReader({ reader: layout.readers[0]!, world: World.random(layout, 12), seed: 12, t0: Date.now(), timeScale: 1, port: 0, log: silent, windowMs: 3_600_000 });
    await sim.listen();
    const must = mustOf(app());
    await must('PUT', '/configuration/v1/readerDefinitions/createOrReplace', { name: sim.name, address: '127.0.0.1', type: 'SPEEDWAY', facility: 'DEFAULT', connection: { protocol: 'LLRP', port: sim.port } });
    await must('PUT', '/configuration/v1/readerConfigurations/createOrReplace', { name: 'rf-inv', operation: 'INVENTORY', configuration: { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'DUAL_TARGET' } });
    await must('PUT', '/configuration/v1/recipes/createOrReplace', { name: 'rf-recipe', type: 'INVENTORY', readerConfigurationName: 'rf-inv', reportingInterval: 60 });
    const job = await must('POST', '/control/v1/jobs/start', { recipeName: 'rf-recipe', facility: 'DEFAULT', startDelay: 'PT0S' });
    await until('the job RUNNING on the reader', async () => {
      const shown = await app().request('GET', `/control/v1/jobs/show/${job.id}`);
      return shown.body?.status === 'RUNNING' && sim?.reading === true ? true : undefined;
    });
    const droppedBefore = await droppedReads(sim.name);

    logs = captureLogs();
    const epcs = Array.from({ length: READS }, (_, i) => `AE00000000000000000000${i.toString(16).toUpperCase().padStart(2, '0')}`);
    expect(sim.sendReads(epcs)).to.equal(true);
    // The reads are ahead of the answer to STOP_ROSPEC on the connection: the link has them when its job ends.
    await must('POST', `/control/v1/jobs/stop/${job.id}?graceful=false`);
    const reader = sim.name;
    const dropped = await until('the batch dropped', async () =>
      logs?.lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l['msg'] === 'tag reads dropped' && l['reader'] === reader),
    );
    logs.restore();
    logs = undefined;
    expect(dropped).to.deep.include({ level: 'warn', reason: 'NOT_ASSIGNED', jobId: job.id, observations: READS, reads: READS });
    expect(dropped['detail']).to.match(/Report refused: the reader is in no STARTING, RUNNING or STOPPING job/);
    expect((await droppedReads(reader)) - droppedBefore).to.equal(READS);
    expect((await storedObservations(app(), reader)).filter((o) => epcs.includes(o.epc))).to.deep.equal([]);
  });
});

/** tagtrail_reader_reads_dropped_total of `reader`, reason NOT_ASSIGNED. */
async function droppedReads(reader: string): Promise<number> {
  return (await metrics.readerReadsDropped.get()).values.find((v) => v.labels['reader'] === reader && v.labels['reason'] === 'NOT_ASSIGNED')?.value ?? 0;
}
