// THRESHOLD over LLRP on an xArray over a door (the portal model's OVERHEAD
// arrangement: beam 13 looks into the IN side, 17 into the OUT side, 1 straight
// down), played by the simulated LLRP reader, which says in its capabilities
// that it locates tags and could decide direction itself (Impinj's
// ImpinjxArrayCapabilities, its own encoder). tagtrail does not ask for the
// reader's own direction: it runs the door's beams by port into its direction
// engine. A door whose antenna configuration names polarized beam ids, which
// the reader never reports over LLRP, is refused naming why; the same door by
// port gives each walk one transition the right way.
import { expect } from 'chai';
import { SimLlrpReader } from '../../src/simulator/llrp-reader';
import { portalReaders, type Passage, type PortalDef } from '../../src/simulator/portal';
import { appWithEnv, mustOf, storedObservations, until } from './support';
import { silent } from '../support/logger';

const ENV = { READERS_KEEPALIVE_SECONDS: '1', READERS_RECONNECT_MAX_SECONDS: '2', HEALTH_CHECKIN_INTERVAL_SECONDS: '1', JOB_ACK_TIMEOUT_SECONDS: '30' };

describe('LLRP readers: THRESHOLD on an xArray over a door', function () {
  this.timeout(150_000);
  const appOf = appWithEnv(ENV);
  let sim: SimLlrpReader | undefined;
  after(async () => {
    await sim?.close();
  });

  it('polarized beam ids are refused naming why; the beams by port run into tagtrail\'s engine, each walk one transition the right way', async () => {
    const app = appOf();
    const must = mustOf(app);
    const portal: PortalDef = { name: `xdoor-${crypto.randomUUID().slice(0, 8)}`, arrangement: 'OVERHEAD', x: 0, y: 0, floor: '1' };
    const reader = portalReaders(portal, 'llrp-')[0]!;
    expect(reader.family).to.equal('XARRAY');
    const passages: Passage[] = [];
    const t0 = Date.now();
    sim = new SimLlrpReader({ door: { portal, reader, passages, noise: { rssiSigmaDb: 1, strayRate: 0 } }, seed: 5, t0, timeScale: 1, port: 0, log: silent, windowMs: 200 });
    await sim.listen();
    expect(sim.capabilities.computesLocations).to.equal(true);

    await must('PUT', '/configuration/v1/readerDefinitions/createOrReplace', {
      name: reader.name, address: '127.0.0.1', type: 'XARRAY', facility: 'DEFAULT', connection: { protocol: 'LLRP', port: sim.port },
    });
    const beams = (inId: number, outId: number, ignoredId: number) => must('POST', '/configuration/v1/thresholds/antennaConfiguration', {
      name: `${reader.name} beams ${inId}`, side: 'LEFT', readerType: 'XARRAY', readerArrangement: 'OVERHEAD',
      in: [{ antennaId: inId }], out: [{ antennaId: outId }], ignored: [{ antennaId: ignoredId }],
    });
    const door = async (antennaConfigurationId: number) => must('PUT', '/configuration/v1/thresholds/createOrReplace', {
      name: portal.name, facility: 'DEFAULT', readerArrangement: 'OVERHEAD', readers: { [reader.name]: { antennaConfigurationId } },
    });
    await must('PUT', '/configuration/v1/readerConfigurations/createOrReplace', { name: `${portal.name}-rc`, operation: 'THRESHOLD', configuration: { readerMode: 'MAX_THROUGHPUT', session: 1 } });
    const startJob = async (thresholdId: number) => {
      await must('PUT', '/configuration/v1/recipes/createOrReplace', { name: `${portal.name}-recipe`, type: 'THRESHOLD', readerConfigurationName: `${portal.name}-rc`, thresholdIds: [thresholdId] });
      return must('POST', '/control/v1/jobs/start', { recipeName: `${portal.name}-recipe`, facility: 'DEFAULT', startDelay: 'PT0S' });
    };

    // Horizontal beam 13 in, vertical 17 out: ids only the reader's agent reports.
    const polarized = await door((await beams(1013, 2017, 1001)).id);
    const refused = await startJob(polarized.id);
    // Its only reader failed, so the job stops JOB_FAILED (docs/jobs.md) and frees the reader for the next.
    const stopped = await until('the refused job stopped', async () => {
      const s = await app.request('GET', `/control/v1/jobs/show/${refused.id}`);
      return s.body?.status === 'STOPPED' ? s.body : undefined;
    });
    expect(stopped.failedReaderNames).to.deep.equal([reader.name]);
    expect(stopped.errors.map((e: { message: string }) => e.message).join('\n')).to.contain(
      `reader ${reader.name}: the reader cannot run the configuration: the thresholds' antenna configuration gives reader ${reader.name} polarized beam ids (1013, 2017), which only a reader driven by its agent reports; over LLRP and the IoT interface the reader reports its ports (here 13, 17)`,
    );
    expect(sim.reading).to.equal(false);

    // The same beams by port.
    const byPort = await door((await beams(13, 17, 1)).id);
    const job = await startJob(byPort.id);
    await until('job RUNNING on the xArray', async () => {
      const s = await app.request('GET', `/control/v1/jobs/show/${job.id}`);
      expect(s.body?.failedReaderNames ?? [], JSON.stringify(s.body?.errors)).to.deep.equal([]);
      return s.body?.status === 'RUNNING' && sim?.reading ? true : undefined;
    });
    const start = (Date.now() - t0) / 1000 + 0.5;
    const walks: Array<['IN' | 'OUT', string]> = [['IN', 'E20000000000000000000B01'], ['OUT', 'E20000000000000000000B02']];
    walks.forEach(([toward, epc], i) => passages.push({ epc, portal: portal.name, kind: 'THROUGH', at: start + 4 * i, toward }));
    const transitions = await until('a transition for every walk', async () => {
      const res = await app.request('GET', `/data/v1/items/show/transitions?jobId=${job.id}&pageSize=1000`);
      const list = (res.body?.transitions ?? []) as Array<{ epc: string; destination: string }>;
      return walks.every(([, epc]) => list.some((t) => t.epc === epc)) ? list : undefined;
    }, 60_000);
    expect(transitions.map((t) => [t.destination, t.epc]).sort()).to.deep.equal([...walks].sort());
    // Only the door's beams were run: the one looking straight down is ignored.
    expect(new Set((await storedObservations(app, reader.name)).map((o) => o.antennaId))).to.deep.equal(new Set([13, 17]));
    await must('POST', `/control/v1/jobs/stop/${job.id}?graceful=false`);
  });
});
