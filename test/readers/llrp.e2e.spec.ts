// LLRP readers end to end: simulated readers speaking LLRP on loopback
// ports, tagtrail (all roles, the readers role included) connecting to them
// from their reader definitions. A job runs on them; its reads become items
// and queue messages; a reader that refuses the ROSpec fails in the job with
// its own words; a reader that disappears mid-job turns NOT_RESPONDING with a
// connection health event, and picks the job up again when it comes back.
import { expect } from 'chai';
import { generateLayout } from '../../src/simulator/layout';
import { SimLlrpReader } from '../../src/simulator/llrp-reader';
import { World } from '../../src/simulator/world';
import { parseOptions } from '../../src/simulator/options';
import { runSimulation } from '../../src/simulator/run';
import { startTestApp, type TestApp } from '../support/app';
import { appWithEnv, expectTidAndPhase, storedObservations, until } from './support';
import { silent } from '../support/logger';
import { consume, type Consumer } from '../queues/support';
import { sleep } from '../support/wait';



// Settings of the service under test: quick keepalives and check-in interval for a test.
const ENV = { READERS_KEEPALIVE_SECONDS: '1', READERS_RECONNECT_MAX_SECONDS: '2', HEALTH_CHECKIN_INTERVAL_SECONDS: '1', JOB_ACK_TIMEOUT_SECONDS: '30' };

describe('LLRP readers (readers role against simulated LLRP readers)', function () {
  this.timeout(120_000);
  let app: TestApp;
  const readers: SimLlrpReader[] = [];
  let consumer: Consumer | undefined;

  before(async () => {
    app = await startTestApp(ENV);
  });
  after(async () => {
    await consumer?.close();
    await app?.stop();
    for (const r of readers) await r.close();
  });

  it('reader definition -> job -> items and queue messages; a refused ROSpec fails that reader; a reader that disappears comes back', async () => {
    const layout = generateLayout({ facility: 'DEFAULT', readers: 3, families: ['SPEEDWAY'], tags: 30, seed: 5, prefix: 'llrp-' });
    const world = World.random(layout, 5);
    const t0 = Date.now();
    const [good, refusing, fickle] = layout.readers.map((reader, i) => {
      const sim = new SimLlrpReader({ reader, world, seed: 5, t0, timeScale: 1, port: 0, log: silent, windowMs: 300, refuseRoSpec: i === 1 ? 'RF survey in progress: inventory unavailable' : null });
      readers.push(sim);
      return sim;
    }) as [SimLlrpReader, SimLlrpReader, SimLlrpReader];
    for (const sim of readers) await sim.listen();

    const must = async (method: string, path: string, body?: unknown): Promise<any> => { // eslint-disable-line @typescript-eslint/no-explicit-any
      const res = await app.request(method, path, body === undefined ? {} : { body });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).to.be.oneOf([200, 204]);
      return res.body;
    };
    await must('PUT', '/configuration/v1/zoneMaps/createOrReplace', { name: 'llrp-map', facility: 'DEFAULT', zones: layout.zones.map((z) => ({ name: z.name, floor: z.floor, points: z.points.map((p) => ({ x: p.x, y: p.y, z: 0 })) })) });
    await must('POST', '/control/v1/currentZoneMap/select/llrp-map');
    for (const sim of readers) {
      const r = layout.readers.find((l) => l.name === sim.name);
      await must('PUT', '/configuration/v1/readerDefinitions/createOrReplace', {
        name: sim.name, address: '127.0.0.1', type: 'SPEEDWAY', facility: 'DEFAULT',
        placement: { x: r?.placement.x, y: r?.placement.y, z: r?.placement.z, floor: r?.placement.floor },
        connection: { protocol: 'LLRP', port: sim.port },
      });
    }
    await must('PUT', '/configuration/v1/readerConfigurations/createOrReplace', { name: 'llrp-inv', operation: 'INVENTORY', configuration: { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'DUAL_TARGET', transmitPowerInDbm: 30 } });
    await must('PUT', '/configuration/v1/recipes/createOrReplace', { name: 'llrp-recipe', type: 'INVENTORY', readerConfigurationName: 'llrp-inv', reportingInterval: 1 });
    const queue = await must('PUT', '/data/v1/items/queues', {});
    consumer = await consume(queue.queue as string);

    // Connected before any job: health shows the readers alive (their firmware from the capabilities,
    // their temperature from Impinj's GET_READER_CONFIG extension).
    const idle = await until('readers connected and IDLE', async () => {
      const h = await app.request('GET', `/health/v1/readers/${good.name}`);
      return h.body?.state === 'IDLE' && h.body?.version?.Firmware === '7.6.1-sim' ? h.body : undefined;
    });
    expect(idle.temperature?.celsius).to.equal(good.temperature);

    const job = await must('POST', '/control/v1/jobs/start', { recipeName: 'llrp-recipe', facility: 'DEFAULT', startDelay: 'PT0S' });
    const running = await until('job RUNNING with the refusing reader failed', async () => {
      const s = await app.request('GET', `/control/v1/jobs/show/${job.id}`);
      return s.body?.status === 'RUNNING' && s.body.failedReaderNames.includes(refusing.name) ? s.body : undefined;
    });
    expect(running.failedReaderNames).to.deep.equal([refusing.name]);
    expect(running.errors.map((e: { message: string }) => e.message).join('\n')).to.contain(`reader ${refusing.name}: the reader refused the ROSpec: A_OutOfRange: RF survey in progress: inventory unavailable`);

    const epcs = new Set(layout.tags.map((t) => t.epc));
    const items = await until('items in the read model', async () => {
      const res = await app.request('GET', '/data/v1/items/show?pageSize=1000');
      return res.body?.items?.length > 0 ? (res.body.items as Array<{ epc: string }>) : undefined;
    });
    expect(items.every((i) => epcs.has(i.epc)), 'every item is a tag of the world').to.equal(true);
    // Not asked for: no TID, no phase.
    expect((await storedObservations(app, good.name)).some((o) => o.tid !== null || o.phaseAngle !== undefined)).to.equal(false);
    await consumer.until(1, 30_000);
    expect(epcs.has(consumer.messages[0]?.body.epc)).to.equal(true);
    const stats = await must('GET', `/control/v1/jobs/stats/${job.id}`);
    expect(stats.reports).to.be.greaterThan(0);

    // A reader that disappears mid-job: a connection health event, then NOT_RESPONDING.
    await fickle.disappear();
    await until('connection lost recorded', async () => {
      const res = await app.request('POST', '/health/v1/events', { body: { readerNames: [fickle.name], codes: ['NETWORK'] } });
      return res.body?.events?.length > 0 ? res.body.events : undefined;
    });
    await until('NOT_RESPONDING', async () => ((await app.request('GET', `/health/v1/readers/${fickle.name}`)).body?.state === 'NOT_RESPONDING' ? true : undefined));
    const before = fickle.readsSent;
    await fickle.listen();
    await until('reading again after it came back', async () => (fickle.readsSent > before ? true : undefined), 40_000);
    await until('RUNNING_JOB again', async () => ((await app.request('GET', `/health/v1/readers/${fickle.name}`)).body?.state === 'RUNNING_JOB' ? true : undefined));

    // The job's stop stops the readers: nothing more is read.
    await must('POST', `/control/v1/jobs/stop/${job.id}?graceful=false`);
    await until('readers stopped reading', async () => {
      const sent = good.readsSent;
      await sleep(1200);
      return good.readsSent === sent ? true : undefined;
    });
  });
});

describe('LLRP readers: TID and phase angle', function () {
  this.timeout(120_000);
  const app = appWithEnv(ENV);
  let sim: SimLlrpReader | undefined;
  const others: SimLlrpReader[] = [];
  after(async () => {
    await sim?.close();
    for (const o of others) await o.close();
  });

  it('a configuration with reportConfig tidIncluded and phaseAngleIncluded: each stored observation has the tag\'s TID and a phase angle', async () => {
    const layout = generateLayout({ facility: 'DEFAULT', readers: 1, families: ['SPEEDWAY'], tags: 20, seed: 6, prefix: 'llrp-tid-' });
    sim = new SimLlrpReader({ reader: layout.readers[0]!, world: World.random(layout, 6), seed: 6, t0: Date.now(), timeScale: 1, port: 0, log: silent, windowMs: 300 });
    await sim.listen();
    await expectTidAndPhase(app(), sim.name, { protocol: 'LLRP', port: sim.port });
  });

  it('a reader of another maker: the TID read by an AccessSpec of the TID bank is each observation\'s TID (no phase: only Impinj reports it)', async () => {
    const layout = generateLayout({ facility: 'DEFAULT', readers: 1, families: ['SPEEDWAY'], tags: 20, seed: 7, prefix: 'llrp-tid-any-' });
    const other = new SimLlrpReader({ reader: layout.readers[0]!, world: World.random(layout, 7), manufacturer: 161, seed: 7, t0: Date.now(), timeScale: 1, port: 0, log: silent, windowMs: 300 });
    others.push(other);
    await other.listen();
    await expectTidAndPhase(app(), other.name, { protocol: 'LLRP', port: other.port }, { phase: false });
  });
});

describe('npm run simulate -- --protocol llrp', function () {
  this.timeout(120_000);
  const app = appWithEnv({ READERS_KEEPALIVE_SECONDS: '1' });

  it('--demo --start-job plays every reader as an LLRP reader, the door\'s too: definitions with their ports, a job whose reports reach tagtrail', async () => {
    const options = parseOptions(['--url', app().baseUrl, '--demo', '--start-job', '--protocol', 'llrp', '--readers', '2', '--families', 'SPEEDWAY,XPORTAL', '--tags', '15', '--seed', '3', '--duration', '8', '--progress', 'none']);
    const summary = await runSimulation(options, { log: silent });
    expect(summary.totals.observations, JSON.stringify(summary)).to.be.greaterThan(0);
    const defs = (await app().request('GET', '/configuration/v1/readerDefinitions/show')).body as Array<{ connection: { protocol: string; port: number } | null; address: string }>;
    // The two zone readers and the door's two jamb readers, all over LLRP.
    expect(defs.map((d) => d.connection?.protocol)).to.deep.equal(['LLRP', 'LLRP', 'LLRP', 'LLRP']);
    expect(summary.door?.jobId, JSON.stringify(summary.door)).to.be.a('string');
    const stats = await app().request('GET', `/control/v1/jobs/stats/${summary.jobId}`);
    expect(stats.body.reports, JSON.stringify(stats.body)).to.be.greaterThan(0);
    const job = await app().request('GET', `/control/v1/jobs/show/${summary.jobId}`);
    expect(job.body.failedReaderNames).to.deep.equal([]);
  });
});
