// THRESHOLD over LLRP end to end: a door watched by two ordinary antennas
// of one reader of another maker than Impinj (antenna 1 facing in, 2 facing
// out, 3 ignored), played by the simulated LLRP reader (frames of its own
// encoder) from the portal model's passages; tagtrail runs the job on it from
// the threshold's antenna configuration, and the reads reach the direction
// engine: each walk through the door is one transition, the right way.
import { expect } from 'chai';
import { SimLlrpReader } from '../../src/simulator/llrp-reader';
import { portalReaders, type Passage, type PortalDef, type PortalReader } from '../../src/simulator/portal';
import { appWithEnv, mustOf, storedObservations, until } from './support';
import { silent } from '../support/logger';

const ENV = { READERS_KEEPALIVE_SECONDS: '1', READERS_RECONNECT_MAX_SECONDS: '2', HEALTH_CHECKIN_INTERVAL_SECONDS: '1', JOB_ACK_TIMEOUT_SECONDS: '30' };

describe('LLRP readers: THRESHOLD on a door of two plain antennas', function () {
  this.timeout(120_000);
  const appOf = appWithEnv(ENV);
  let sim: SimLlrpReader | undefined;
  after(async () => {
    await sim?.close();
  });

  it('the reader runs the in and out antennas only, and every walk through the door is one transition the right way', async () => {
    const app = appOf();
    const must = mustOf(app);
    const portal: PortalDef = { name: `door-${crypto.randomUUID().slice(0, 8)}`, arrangement: 'SIDE_BY_SIDE', x: 0, y: 0, floor: '1' };
    const jamb = portalReaders(portal, 'llrp-')[0]!;
    // A Speedway-class reader on one jamb: its antenna 3 looks across the doorway and is listed as ignored, so it is not run.
    const reader: PortalReader = { ...jamb, family: 'SPEEDWAY', antennas: [...jamb.antennas, { id: 3, x: jamb.placement.x, y: 0, z: 1.2, facing: 0, dir: [1, 0, 0] }] };
    const passages: Passage[] = [];
    const t0 = Date.now();
    sim = new SimLlrpReader({ door: { portal, reader, passages, noise: { rssiSigmaDb: 1, strayRate: 0 } }, manufacturer: 161, seed: 3, t0, timeScale: 1, port: 0, log: silent, windowMs: 200 });
    await sim.listen();

    await must('PUT', '/configuration/v1/readerDefinitions/createOrReplace', {
      name: reader.name, address: '127.0.0.1', type: 'SPEEDWAY', facility: 'DEFAULT', connection: { protocol: 'LLRP', port: sim.port },
    });
    const antennas = await must('POST', '/configuration/v1/thresholds/antennaConfiguration', {
      name: `${reader.name} jamb`, side: 'LEFT', readerType: 'SPEEDWAY', readerArrangement: 'SIDE_BY_SIDE',
      in: [{ antennaId: 1 }], out: [{ antennaId: 2 }], ignored: [{ antennaId: 3 }],
    });
    const threshold = await must('PUT', '/configuration/v1/thresholds/createOrReplace', {
      name: portal.name, facility: 'DEFAULT', readerArrangement: 'SIDE_BY_SIDE', readers: { [reader.name]: { antennaConfigurationId: antennas.id } },
    });
    await must('PUT', '/configuration/v1/readerConfigurations/createOrReplace', { name: `${portal.name}-rc`, operation: 'THRESHOLD', configuration: { readerMode: 'MAX_THROUGHPUT', session: 1 } });
    await must('PUT', '/configuration/v1/recipes/createOrReplace', { name: `${portal.name}-recipe`, type: 'THRESHOLD', readerConfigurationName: `${portal.name}-rc`, thresholdIds: [threshold.id] });
    const job = await must('POST', '/control/v1/jobs/start', { recipeName: `${portal.name}-recipe`, facility: 'DEFAULT', startDelay: 'PT0S' });
    await until('job RUNNING on the reader', async () => {
      const s = await app.request('GET', `/control/v1/jobs/show/${job.id}`);
      expect(s.body?.failedReaderNames ?? [], JSON.stringify(s.body?.errors)).to.deep.equal([]);
      return s.body?.status === 'RUNNING' && sim?.reading ? true : undefined;
    });

    // Four walks through the door, one every 4 s, two each way; a walk takes about 6 s.
    const start = (Date.now() - t0) / 1000 + 0.5;
    const walks: Array<['IN' | 'OUT', string]> = [['IN', 'E20000000000000000000A01'], ['OUT', 'E20000000000000000000A02'], ['OUT', 'E20000000000000000000A03'], ['IN', 'E20000000000000000000A04']];
    walks.forEach(([toward, epc], i) => passages.push({ epc, portal: portal.name, kind: 'THROUGH', at: start + 4 * i, toward }));

    const transitions = await until('a transition for every walk', async () => {
      const res = await app.request('GET', `/data/v1/items/show/transitions?jobId=${job.id}&pageSize=1000`);
      const list = (res.body?.transitions ?? []) as Array<{ epc: string; destination: string; thresholdName: string }>;
      return walks.every(([, epc]) => list.some((t) => t.epc === epc)) ? list : undefined;
    }, 60_000);
    expect(transitions.map((t) => [t.destination, t.epc]).sort()).to.deep.equal([...walks].sort());
    expect(new Set(transitions.map((t) => t.thresholdName))).to.deep.equal(new Set([portal.name]));

    // Only the door's antennas were run, and every report folds at most 500 ms of reads.
    const observations = await storedObservations(app, reader.name);
    expect(new Set(observations.map((o) => o.antennaId))).to.deep.equal(new Set([1, 2]));
    const spans = observations.map((o) => Date.parse(o.lastSeen) - Date.parse(o.firstSeen));
    expect(Math.max(...spans)).to.be.at.most(500 + 200);
    await must('POST', `/control/v1/jobs/stop/${job.id}?graceful=false`);
  });
});
