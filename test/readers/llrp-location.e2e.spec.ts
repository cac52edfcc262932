// LOCATION over LLRP end to end: a simulated xArray (Impinj's LLRP location
// extensions, frames of the simulated reader's own encoder) is told where it
// stands and runs an ImpinjLISpec; the locations it reports become item
// positions and zones. A Speedway, which computes no locations, fails in the
// job with a reason saying so.
import { expect } from 'chai';
import { generateLayout } from '../../src/simulator/layout';
import { SimLlrpReader } from '../../src/simulator/llrp-reader';
import { World } from '../../src/simulator/world';
import { appWithEnv, closedAfter, mustOf, storedObservations, until } from './support';
import { silent } from '../support/logger';

const ENV = { READERS_KEEPALIVE_SECONDS: '1', READERS_RECONNECT_MAX_SECONDS: '2', HEALTH_CHECKIN_INTERVAL_SECONDS: '1', JOB_ACK_TIMEOUT_SECONDS: '30' };

describe('LLRP readers: LOCATION on readers that locate tags', function () {
  this.timeout(120_000);
  const appOf = appWithEnv(ENV);
  const sims = closedAfter<SimLlrpReader>();

  it('an xArray places items in zones from its own location reports; a Speedway in the same job fails, saying it computes no locations', async () => {
    const app = appOf();
    const must = mustOf(app);
    const arrays = generateLayout({ facility: 'DEFAULT', readers: 1, families: ['XARRAY'], tags: 20, seed: 9, prefix: 'llrp-loc-' });
    const plain = generateLayout({ facility: 'DEFAULT', readers: 1, families: ['SPEEDWAY'], tags: 1, seed: 9, prefix: 'llrp-loc-plain-' });
    const t0 = Date.now();
    const xarray = new SimLlrpReader({ reader: arrays.readers[0]!, world: World.random(arrays, 9), seed: 9, t0, timeScale: 1, port: 0, log: silent, windowMs: 300 });
    const speedway = new SimLlrpReader({ reader: plain.readers[0]!, world: World.random(plain, 9), seed: 9, t0, timeScale: 1, port: 0, log: silent, windowMs: 300 });
    sims.push(xarray, speedway);
    for (const s of sims) await s.listen();
    await must('PUT', '/configuration/v1/zoneMaps/createOrReplace', { name: 'llrp-loc-map', facility: 'DEFAULT', zones: arrays.zones.map((z) => ({ name: z.name, floor: z.floor, points: z.points.map((p) => ({ x: p.x, y: p.y, z: 0 })) })) });
    await must('POST', '/control/v1/currentZoneMap/select/llrp-loc-map');
    for (const [sim, r] of [[xarray, arrays.readers[0]!], [speedway, plain.readers[0]!]] as const) {
      await must('PUT', '/configuration/v1/readerDefinitions/createOrReplace', {
        name: sim.name, address: '127.0.0.1', type: r.family, facility: 'DEFAULT',
        placement: { x: r.placement.x, y: r.placement.y, z: r.placement.z, yaw: 0, pitch: 0, roll: 0, floor: r.placement.floor },
        connection: { protocol: 'LLRP', port: sim.port },
      });
    }
    await must('PUT', '/configuration/v1/readerConfigurations/createOrReplace', { name: 'llrp-loc', operation: 'LOCATION', configuration: { readerMode: 'MAX_THROUGHPUT', session: 2 } });
    await must('PUT', '/configuration/v1/recipes/createOrReplace', { name: 'llrp-loc', type: 'LOCATION', readerConfigurationName: 'llrp-loc', reportingInterval: 1 });
    const job = await must('POST', '/control/v1/jobs/start', { recipeName: 'llrp-loc', facility: 'DEFAULT', startDelay: 'PT0S' });

    const running = await until('job RUNNING with the Speedway failed', async () => {
      const s = await app.request('GET', `/control/v1/jobs/show/${job.id}`);
      return s.body?.status === 'RUNNING' && s.body.failedReaderNames.includes(speedway.name) ? s.body : undefined;
    });
    expect(running.failedReaderNames).to.deep.equal([speedway.name]);
    expect(running.errors.map((e: { message: string }) => e.message).join('\n')).to.contain(`reader ${speedway.name}: the reader cannot run the configuration: LOCATION needs a reader that computes tag locations itself`);

    const epcs = new Set(arrays.tags.map((t) => t.epc));
    const items = await until('located items', async () => {
      const res = await app.request('GET', '/data/v1/items/show?pageSize=1000');
      const list = (res.body?.items ?? []) as Array<{ epc: string; xLocation: number | null; yLocation: number | null; zone: string }>;
      return list.length > 0 && list.every((i) => typeof i.xLocation === 'number' && typeof i.yLocation === 'number') ? list : undefined;
    }, 60_000);
    expect(items.every((i) => epcs.has(i.epc)), 'every item is a tag of the world').to.equal(true);
    const zones = new Set(arrays.zones.map((z) => z.name));
    expect(items.some((i) => zones.has(i.zone)), JSON.stringify(items.slice(0, 3))).to.equal(true);
    // What was stored is the reader's own locations: x and y on every observation, in metres near the tags.
    const observations = await storedObservations(app, xarray.name);
    expect(observations.length).to.be.greaterThan(0);
    expect(observations.every((o) => typeof o.x === 'number' && typeof o.y === 'number')).to.equal(true);
    await must('POST', `/control/v1/jobs/stop/${job.id}?graceful=false`);
  });
});
