// Impinj IoT-interface readers end to end: simulated R700s (REST on
// loopback ports, HTTP Basic), tagtrail's readers role driving them from
// their reader definitions; one delivers tag events by the HTTP stream, one
// through the machine's Mosquitto (a topic of this run), one refuses the
// preset. Reads become items; the refusal fails that reader with its words.
import { expect } from 'chai';
import { generateLayout } from '../../src/simulator/layout';
import { SimIotReader } from '../../src/simulator/iot-reader';
import { World } from '../../src/simulator/world';
import { parseOptions } from '../../src/simulator/options';
import { runSimulation } from '../../src/simulator/run';
import { startTestApp, type TestApp } from '../support/app';
import { appWithEnv, expectTidAndPhase, until } from './support';
import { silent } from '../support/logger';
import { sleep } from '../support/wait';
import { freePort } from '../../bench/support/ports';



const ENV = { READERS_KEEPALIVE_SECONDS: '1', READERS_RECONNECT_MAX_SECONDS: '2', HEALTH_CHECKIN_INTERVAL_SECONDS: '1' };

describe('Impinj IoT readers (readers role against simulated IoT-interface readers)', function () {
  this.timeout(120_000);
  let app: TestApp;
  const readers: SimIotReader[] = [];

  before(async () => {
    // The webhook reader must be told tagtrail's address, so the port is chosen first.
    const port = await freePort();
    app = await startTestApp({ ...ENV, PORT: String(port), READERS_WEBHOOK_BASE_URL: `http://127.0.0.1:${port}/itemsense` });
  });
  after(async () => {
    await app?.stop();
    for (const r of readers) await r.close();
  });

  it('reader definition -> job -> items over the HTTP stream, MQTT and the webhook; a refused preset fails that reader; wrong credentials are a health event', async () => {
    const layout = generateLayout({ facility: 'DEFAULT', readers: 4, families: ['SPEEDWAY'], tags: 30, seed: 8, prefix: 'iot-' });
    const world = World.random(layout, 8);
    const password = `pw-${crypto.randomUUID()}`;
    const sims = layout.readers.map((reader, i) => new SimIotReader({ reader, world, seed: 8, t0: Date.now(), timeScale: 1, port: 0, username: 'root', password, log: silent, windowMs: 300, refusePreset: i === 2 ? 'transmitPowerCdbm 3000 exceeds the region limit' : null }));
    readers.push(...sims);
    for (const s of sims) await s.listen();
    const [streamed, viaMqtt, refusing, hooked] = sims as [SimIotReader, SimIotReader, SimIotReader, SimIotReader];
    const deliveries = new Map([[streamed.name, 'STREAM'], [viaMqtt.name, 'MQTT'], [refusing.name, 'STREAM'], [hooked.name, 'WEBHOOK']]);

    const must = async (method: string, path: string, body?: unknown): Promise<any> => { // eslint-disable-line @typescript-eslint/no-explicit-any
      const res = await app.request(method, path, body === undefined ? {} : { body });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).to.be.oneOf([200, 204]);
      return res.body;
    };
    await must('PUT', '/configuration/v1/zoneMaps/createOrReplace', { name: 'iot-map', facility: 'DEFAULT', zones: layout.zones.map((z) => ({ name: z.name, floor: z.floor, points: z.points.map((p) => ({ x: p.x, y: p.y, z: 0 })) })) });
    await must('POST', '/control/v1/currentZoneMap/select/iot-map');
    for (const s of sims) {
      await must('PUT', '/configuration/v1/readerDefinitions/createOrReplace', {
        name: s.name, address: '127.0.0.1', type: 'SPEEDWAY', facility: 'DEFAULT',
        connection: { protocol: 'IOT', scheme: 'http', port: s.port, username: 'root', password: s === refusing ? 'wrong' : password, delivery: deliveries.get(s.name) },
      });
    }
    // The third reader was given a wrong password: its refusal is a health event; then fix it (the password kept write-only).
    await until('credentials refused recorded', async () => {
      const res = await app.request('POST', '/health/v1/events', { body: { readerNames: [refusing.name], codes: ['READER_CONNECTION'] } });
      return res.body?.events?.length > 0 ? true : undefined;
    });
    await must('PUT', '/configuration/v1/readerDefinitions/createOrReplace', { name: refusing.name, address: '127.0.0.1', type: 'SPEEDWAY', facility: 'DEFAULT', connection: { protocol: 'IOT', scheme: 'http', port: refusing.port, password, delivery: 'STREAM' } });

    await must('PUT', '/configuration/v1/readerConfigurations/createOrReplace', { name: 'iot-inv', operation: 'INVENTORY', configuration: { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'DUAL_TARGET', transmitPowerInDbm: 30 } });
    await must('PUT', '/configuration/v1/recipes/createOrReplace', { name: 'iot-recipe', type: 'INVENTORY', readerConfigurationName: 'iot-inv', reportingInterval: 1 });
    for (const s of sims) {
      const health = await until(`${s.name} reachable`, async () => {
        const h = await app.request('GET', `/health/v1/readers/${s.name}`);
        return h.body?.version?.Firmware === '8.2.1-sim' ? h.body : undefined;
      });
      // What the reader says of its temperature (GET /api/v1/system/temperature), carried by the check-in.
      expect(health.temperature?.celsius).to.equal(s.temperature);
    }
    const job = await must('POST', '/control/v1/jobs/start', { recipeName: 'iot-recipe', facility: 'DEFAULT', startDelay: 'PT0S' });
    const running = await until('job RUNNING, the refusing reader failed', async () => {
      const s = await app.request('GET', `/control/v1/jobs/show/${job.id}`);
      return s.body?.status === 'RUNNING' && s.body.failedReaderNames.includes(refusing.name) ? s.body : undefined;
    });
    expect(running.errors.map((e: { message: string }) => e.message).join('\n')).to.contain('transmitPowerCdbm 3000 exceeds the region limit');

    const epcs = new Set(layout.tags.map((t) => t.epc));
    for (const s of [streamed, viaMqtt, hooked]) {
      await until(`reports of ${s.name}`, async () => {
        const stats = await app.request('GET', '/agent/v1/stats');
        const mine = (stats.body.readers as Array<{ readerName: string; acceptedReports: number }>).find((r) => r.readerName === s.name);
        return (mine?.acceptedReports ?? 0) > 0 ? true : undefined;
      });
    }
    const items = await until('items', async () => {
      const res = await app.request('GET', '/data/v1/items/show?pageSize=1000');
      return res.body?.items?.length > 0 ? (res.body.items as Array<{ epc: string }>) : undefined;
    });
    expect(items.every((i) => epcs.has(i.epc))).to.equal(true);
    expect(hooked.webhookFailures, 'webhook deliveries answered non-2xx').to.equal(0);
    // Every body tagtrail sent fitted the interface's schema (the simulated readers check each), and every preset stated its power.
    for (const s of sims) expect(s.refusedBodies, s.name).to.deep.equal([]);
    for (const s of [streamed, viaMqtt, hooked]) expect(s.lastPreset?.antennaConfigs.map((a) => a.transmitPowerCdbm), s.name).to.deep.equal([3000, 3000, 3000, 3000]);
    // The webhook route takes only the reader's own credentials.
    const anonymous = await app.request('POST', `/agent/v1/readers/${hooked.name}/iot/events`, { body: [], auth: null });
    expect(anonymous.status).to.equal(401);
    const wrong = await app.request('POST', `/agent/v1/readers/${hooked.name}/iot/events`, { body: [], auth: `Basic ${Buffer.from(`${hooked.name}:guess`).toString('base64')}` });
    expect(wrong.status).to.equal(401);
    await must('POST', `/control/v1/jobs/stop/${job.id}?graceful=false`);
    await until('readers stopped', async () => {
      const sent = streamed.readsSent + viaMqtt.readsSent + hooked.readsSent;
      await sleep(1200);
      return streamed.readsSent + viaMqtt.readsSent + hooked.readsSent === sent ? true : undefined;
    });
  });
});

describe('Impinj IoT readers: TID and phase angle', function () {
  this.timeout(120_000);
  const app = appWithEnv(ENV);
  let sim: SimIotReader | undefined;
  after(async () => {
    await sim?.close();
  });

  it('a configuration with reportConfig tidIncluded and phaseAngleIncluded: the preset asks tidHex and phaseAngle, each stored observation has them', async () => {
    const layout = generateLayout({ facility: 'DEFAULT', readers: 1, families: ['SPEEDWAY'], tags: 20, seed: 9, prefix: 'iot-tid-' });
    const password = `pw-${crypto.randomUUID()}`;
    sim = new SimIotReader({ reader: layout.readers[0]!, world: World.random(layout, 9), seed: 9, t0: Date.now(), timeScale: 1, port: 0, username: 'root', password, log: silent, windowMs: 300 });
    await sim.listen();
    await expectTidAndPhase(app(), sim.name, { protocol: 'IOT', scheme: 'http', port: sim.port, password, delivery: 'STREAM' });
  });
});

describe('npm run simulate -- --protocol iot', function () {
  this.timeout(120_000);
  const app = appWithEnv({ READERS_KEEPALIVE_SECONDS: '1' });

  it('--demo --start-job plays every reader as an IoT-interface reader delivering over MQTT', async () => {
    const options = parseOptions(['--url', app().baseUrl, '--demo', '--start-job', '--protocol', 'iot', '--iot-delivery', 'MQTT', '--readers', '2', '--families', 'SPEEDWAY', '--tags', '15', '--seed', '4', '--duration', '8', '--progress', 'none']);
    const summary = await runSimulation(options, { log: silent });
    expect(summary.totals.observations, JSON.stringify(summary)).to.be.greaterThan(0);
    const defs = (await app().request('GET', '/configuration/v1/readerDefinitions/show')).body as Array<{ connection: { protocol: string; delivery: string; passwordSet: boolean } }>;
    expect(defs.map((d) => [d.connection.protocol, d.connection.delivery, d.connection.passwordSet])).to.deep.equal([['IOT', 'MQTT', true], ['IOT', 'MQTT', true]]);
    const stats = await app().request('GET', `/control/v1/jobs/stats/${summary.jobId}`);
    expect(stats.body.reports, JSON.stringify(stats.body)).to.be.greaterThan(0);
  });
});
