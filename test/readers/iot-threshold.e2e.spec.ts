// A THRESHOLD job on Impinj IoT readers: a doorway with a reader on each jamb
// (antenna 1 facing IN, 2 facing OUT, as their threshold antenna
// configurations say), both simulated IoT-interface readers (bodies checked
// against the interface's schema), one delivering over the HTTP stream, the
// other over MQTT, reading tags carried through the door. The
// readers run presets on the door antennas only, their reads reach the same
// direction engine as an agent's, and every crossing comes out of the
// transitions query with its direction.
import { expect } from 'chai';
import { SimIotReader } from '../../src/simulator/iot-reader';
import { World } from '../../src/simulator/world';
import { HttpClient } from '../../src/simulator/http';
import { createPortalConfiguration } from '../../src/simulator/portal-demo';
import { DEMO_PORTAL_NOISE, passageEnd, readPortalWindow, type Passage, type PortalDef } from '../../src/simulator/portal';
import { ADMIN } from '../support/app';
import { appWithEnv, mustOf, until } from './support';
import { silent } from '../support/logger';

describe('THRESHOLD over the Impinj IoT interface', function () {
  this.timeout(180_000);
  const app = appWithEnv({ READERS_KEEPALIVE_SECONDS: '1', READERS_RECONNECT_MAX_SECONDS: '2', HEALTH_CHECKIN_INTERVAL_SECONDS: '1' });
  const sims: SimIotReader[] = [];
  after(async () => {
    for (const s of sims) await s.close();
  });

  it('jamb readers run presets on the door antennas only, and each tag carried through comes out as a transition with its direction', async () => {
    const run = crypto.randomUUID().slice(0, 8);
    const portal: PortalDef = { name: `iot-door-${run}`, arrangement: 'SIDE_BY_SIDE', x: 10, y: 10, floor: null };
    const setup = await createPortalConfiguration(new HttpClient(app().baseUrl, ADMIN), [portal], 'DEFAULT', `iot-${run}-`, silent);
    const t0 = Date.now();
    const world = (ms: number): number => (ms - t0) / 1000;
    const passages: Passage[] = [];
    const password = `pw-${crypto.randomUUID()}`;
    for (const { reader } of setup.readers) {
      // Four ports on the reader: the preset must use only the two the door names.
      const layout = { name: reader.name, family: 'SPEEDWAY' as const, placement: reader.placement, antennas: [1, 2, 3, 4].map((id) => ({ id, x: reader.placement.x, y: reader.placement.y, z: 1 })) };
      const sim = new SimIotReader({
        reader: layout, world: World.random({ facility: 'DEFAULT', zoneMapName: 'none', zones: [], readers: [layout], tags: [] }, 1), seed: 1, t0, timeScale: 1, port: 0, username: 'root', password, log: silent, windowMs: 250,
        source: (from, to) => readPortalWindow({ portal, reader, passages, from, to, readerMode: 'MAX_THROUGHPUT', noise: DEMO_PORTAL_NOISE, seed: 3 }),
      });
      sims.push(sim);
      await sim.listen();
    }
    const must = mustOf(app());
    // One jamb delivers over the HTTP stream, the other through the machine's Mosquitto (a topic of this run).
    for (const [i, s] of sims.entries()) {
      await must('PUT', '/configuration/v1/readerDefinitions/createOrReplace', { name: s.name, address: '127.0.0.1', type: 'XPORTAL', facility: 'DEFAULT', connection: { protocol: 'IOT', scheme: 'http', port: s.port, password, delivery: i === 0 ? 'STREAM' : 'MQTT' } });
    }
    for (const s of sims) await until(`${s.name} reachable`, async () => ((await app().request('GET', `/health/v1/readers/${s.name}`)).body?.version?.Firmware ? true : undefined));
    const job = await must('POST', '/control/v1/jobs/start', { recipeName: setup.recipe, facility: 'DEFAULT', startDelay: 'PT0S' });
    await until('job RUNNING on both readers', async () => {
      const s = await app().request('GET', `/control/v1/jobs/show/${job.id}`);
      return s.body?.status === 'RUNNING' && sims.every((r) => r.lastPreset !== null) ? true : undefined;
    });
    for (const s of sims) expect(s.lastPreset?.antennaConfigs.map((a) => [a.antennaPort, a.inventorySearchMode]), s.name).to.deep.equal([[1, 'dual-target'], [2, 'dual-target']]);

    // Eight tags carried through the door from now on, every 2.5 s, alternately inwards and outwards.
    const start = Math.ceil(world(Date.now())) + 1;
    const epcs = Array.from({ length: 8 }, (_, i) => `E2801160600002${run.replace(/[^0-9a-f]/g, '0').padEnd(8, '0')}${String(i).padStart(2, '0')}`.toUpperCase());
    epcs.forEach((epc, i) => passages.push({ epc, portal: portal.name, kind: 'THROUGH', at: start + i * 2.5, toward: i % 2 === 0 ? 'IN' : 'OUT', speed: 1.4, offset: 0 }));
    const expected = new Map(passages.map((p) => [p.epc, p.toward]));
    const lastEnd = Math.max(...passages.map(passageEnd));
    const transitions = await until('a transition for every passage', async () => {
      const res = await app().request('GET', `/data/v1/items/show/transitions?jobId=${String(job.id)}&pageSize=1000`);
      const list = (res.body?.transitions ?? []) as Array<{ epc: string; destination: string; thresholdName: string }>;
      return world(Date.now()) > lastEnd && expected.size <= new Set(list.map((t) => t.epc)).size ? list : undefined;
    }, 90_000);
    for (const t of transitions) {
      expect(t.thresholdName).to.equal(portal.name);
      expect(t.destination, t.epc).to.equal(expected.get(t.epc));
    }
    expect(new Set(transitions.map((t) => t.epc))).to.deep.equal(new Set(epcs));
    for (const s of sims) expect(s.refusedBodies, s.name).to.deep.equal([]);
    await must('POST', `/control/v1/jobs/stop/${String(job.id)}?graceful=false`);
  });
});
