// A THRESHOLD job through the live wiring: configuration over REST (reader
// configuration, readers, antenna configuration, threshold, recipe), a job
// whose reader agent posts reports of people walking through the door; the
// transitions come out of GET /data/v1/items/show/transitions and the
// threshold queue, a rebuild of the read model gives the same answers, and
// INVENTORY jobs run beside it on other readers but not on the door's.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStoreDBClient } from '@eventstore/db-client';
import { createClient } from 'redis';
import { createLogger } from '../../src/core/logger';
import { RedisKeys } from '../../src/core/redis/keys';
import type { RedisClient } from '../../src/core/redis/connect';
import { rebuildReadModel } from '../../projections/rebuild';
import { ENGINE_STREAM } from '../../src/engine/events';
import { transitionsReadModel } from '../../projections/transitions/projection';
import { startTestApp, type TestApp } from '../support/app';
import { expectStatus, RC, RECIPES } from '../readerconfigurations/e2e-support';
import { inventoryBody, thresholdBody } from '../readerconfigurations/fixtures';
import { consume, type Consumer } from '../queues/support';
import { acceptJob, type RunningJob } from './e2e-support';
import { eventually, JOBS } from './live-job';

const TRANSITIONS = '/data/v1/items/show/transitions';
const IN_ANTENNA = 1;
const OUT_ANTENNA = 2;
const IGNORED_ANTENNA = 3;
// An SGTIN-96 (urn:epc:id:sgtin:0614141.812345.6789), so epcFormat has something to decode.
const A = '3074257BF7194E4000001A85';
const B = 'E28011606000020000000B0B';
const C = 'E28011606000020000000C0C';

interface Transition {
  thresholdId: number;
  thresholdName: string;
  epc: string;
  jobId: string;
  transitionId: string;
  destination: string;
  confidence: number;
  creationTime: string;
}

/** Observations of one 500 ms window: [epc, antenna, rssi] read throughout it. */
type Reads = Array<[string, number, number]>;

describe('THRESHOLD job: transitions through the query and the threshold queue', function () {
  this.timeout(120_000);
  let app: TestApp;
  let job: RunningJob;
  let thresholdId: number;
  let queue: Consumer;
  let otherQueue: Consumer;

  const get = async (query: string): Promise<{ transitions: Transition[]; nextPageMarker: string | null; moreTransitionsAvailable: boolean }> => {
    const res = await app.request('GET', `${TRANSITIONS}${query}`);
    expectStatus(res, 200);
    return res.body;
  };

  /** Posts one report per window of 500 ms, the first starting at `t0`. */
  const walk = async (reader: string, t0: number, windows: Reads[]): Promise<void> => {
    for (const [k, reads] of windows.entries()) {
      const from = new Date(t0 + k * 500).toISOString();
      const to = new Date(t0 + k * 500 + 499).toISOString();
      const observations = reads.map(([epc, antennaId, peakRssi]) => ({ epc, tid: null, antennaId, peakRssi, readCount: 4, firstSeen: from, lastSeen: to, x: null, y: null }));
      const res = await app.request('POST', `/agent/v1/readers/${reader}/reports`, { auth: job.auth, body: { reportId: crypto.randomUUID(), jobId: job.jobId, from, to, observations } });
      expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 202, 204]);
    }
  };

  // Own data directory and key prefix: the last test restarts the service on them.
  const env = {
    DATA_DIR: mkdtempSync(join(tmpdir(), 'tagtrail-threshold-')),
    REDIS_KEY_PREFIX: `tagtrail-test-${crypto.randomUUID()}:`,
    JOB_ACK_TIMEOUT_SECONDS: '60',
    HEALTH_CHECKIN_INTERVAL_SECONDS: '3600',
  };

  before(async () => {
    app = await startTestApp(env);
    expectStatus(await app.request('POST', `${RC}/create`, { body: thresholdBody({ searchMode: 'DUAL_TARGET_WITH_BTOASELECT' }, 'thr') }), 200);
    expectStatus(await app.request('POST', `${RC}/create`, { body: inventoryBody({}, 'inv') }), 200);
    for (const [name, group] of [['door-a', 'doors'], ['shelf-1', 'shelves']] as const) {
      expectStatus(await app.request('POST', '/configuration/v1/readerDefinitions/create', { body: { name, groups: [group] } }), 200);
    }
    const ac = await app.request('POST', '/configuration/v1/thresholds/antennaConfiguration', {
      body: { name: 'door overhead', side: 'LEFT', readerType: 'XARRAY', readerArrangement: 'OVERHEAD', in: [{ antennaId: IN_ANTENNA }], out: [{ antennaId: OUT_ANTENNA }], ignored: [{ antennaId: IGNORED_ANTENNA }] },
    });
    expectStatus(ac, 200);
    const threshold = await app.request('POST', '/configuration/v1/thresholds/create', {
      body: { name: 'Dock door', readerArrangement: 'OVERHEAD', readers: { 'door-a': { antennaConfigurationId: ac.body.id } } },
    });
    expectStatus(threshold, 200);
    thresholdId = threshold.body.id as number;
    expectStatus(await app.request('POST', `${RECIPES}/create`, { body: { name: 'door', type: 'THRESHOLD', readerConfigurationName: 'thr', thresholdIds: [], iterationDataLogEnabled: true } }), 200);
    expectStatus(await app.request('POST', `${RECIPES}/create`, { body: { name: 'stock', type: 'INVENTORY', readerConfigurationName: 'inv', reportingInterval: 1, computeWindow: 1 } }), 200);
    const byName = await app.request('PUT', '/data/v1/items/queues/threshold', { body: { threshold: 'Dock door' } });
    expectStatus(byName, 200);
    queue = await consume(byName.body.queue as string);
    const otherJob = await app.request('PUT', '/data/v1/items/queues/threshold', { body: { jobId: 'another-job' } });
    expectStatus(otherJob, 200);
    otherQueue = await consume(otherJob.body.queue as string);
  });
  after(async () => {
    await queue?.close();
    await otherQueue?.close();
    await app?.stop();
    rmSync(env.DATA_DIR, { recursive: true, force: true });
  });

  it('a THRESHOLD job takes only the readers of its thresholds; an INVENTORY job runs beside it on other readers, not on the door reader', async () => {
    const started = await app.request('POST', `${JOBS}/start`, { body: { name: 'door job', recipeName: 'door', startDelay: 'PT0S' } });
    expectStatus(started, 200);
    expect(started.body.readerNames).to.deep.equal(['door-a']);
    job = await acceptJob(app, 'door-a', started.body.id as string);

    const clash = await app.request('POST', `${JOBS}/start`, { body: { recipeName: 'stock', startDelay: 'PT0S' } });
    expect(clash.status).to.equal(409);
    expect(clash.body.message).to.contain('door-a').and.to.contain(`JobId=${job.jobId}`);
    const beside = await app.request('POST', `${JOBS}/start`, { body: { recipeName: 'stock', startDelay: 'PT0S', readerGroups: ['shelves'] } });
    expectStatus(beside, 200);
    expect(beside.body.readerNames).to.deep.equal(['shelf-1']);
    expect((await app.request('POST', `${JOBS}/stop/${beside.body.id as string}?graceful=false`)).status).to.equal(204);
  });

  it('walks through the door become transitions with the right direction; lingering and ignored-antenna tags give none', async () => {
    const t0 = Date.now() - 4000;
    const outSide = (epc: string): [string, number, number] => [epc, OUT_ANTENNA, -52];
    const inSide = (epc: string): [string, number, number] => [epc, IN_ANTENNA, -52];
    // A walks OUT -> IN, B walks IN -> OUT, C stays on the IN side, and every window an ignored antenna hears all of them.
    const noise: Reads = [[A, IGNORED_ANTENNA, -40], [B, IGNORED_ANTENNA, -40], [C, IGNORED_ANTENNA, -40]];
    await walk('door-a', t0, [
      [outSide(A), inSide(B), inSide(C), ...noise],
      [outSide(A), inSide(B), inSide(C), ...noise],
      [outSide(A), inSide(B), inSide(C), ...noise],
      [inSide(A), outSide(B), inSide(C), ...noise],
      [inSide(A), outSide(B), inSide(C), ...noise],
      [inSide(A), outSide(B), inSide(C), ...noise],
    ]);
    const page = await eventually('two transitions', () => get('?pageSize=100'), (b) => b.transitions.length >= 2);
    const byEpc = new Map(page.transitions.map((t) => [t.epc, t]));
    expect(page.transitions).to.have.length(2);
    expect(byEpc.get(A)).to.include({ destination: 'IN', thresholdId, thresholdName: 'Dock door', jobId: job.jobId });
    expect(byEpc.get(B)).to.include({ destination: 'OUT', thresholdId, thresholdName: 'Dock door', jobId: job.jobId });
    for (const t of page.transitions) {
      expect(t.confidence).to.be.within(0.5, 1);
      expect(t.transitionId).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      // The crossing lies between the third and fourth window.
      expect(Math.abs(Date.parse(t.creationTime) - (t0 + 1500))).to.be.at.most(500);
    }
    expect(Object.keys(byEpc.get(A)!).sort()).to.deep.equal(['confidence', 'creationTime', 'destination', 'epc', 'jobId', 'thresholdId', 'thresholdName', 'transitionId']);
  });

  it('with iterationDataLogEnabled every decision is in GET /support/v1/iterationData with its evidence', async () => {
    const body = await eventually('three decisions', async () => (await app.request('GET', `/support/v1/iterationData?jobId=${job.jobId}`)).body as { iterations: Array<Record<string, unknown>> }, (b) => b.iterations.length >= 3);
    const outcomes = new Map(body.iterations.map((i) => [i['epc'], i['outcome']]));
    expect(Object.fromEntries(outcomes)).to.deep.equal({ [A]: 'TRANSITION', [B]: 'TRANSITION', [C]: 'ONE_SIDE' });
    const c = body.iterations.find((i) => i['epc'] === C)!;
    expect(c).to.include({ thresholdId, readsOut: 0, readsIn: 24 });
    expect((await app.request('GET', '/support/v1/iterationData?jobId=another-job')).body).to.deep.equal({ iterations: [] });
  });

  it('filters, epcFormat and paging as the history query', async () => {
    expect((await get('?destination=IN')).transitions.map((t) => t.epc)).to.deep.equal([A]);
    expect((await get(`?threshold=${thresholdId}&destination=OUT`)).transitions.map((t) => t.epc)).to.deep.equal([B]);
    expect((await get('?threshold=Dock%20door')).transitions).to.have.length(2);
    expect((await get('?threshold=Back%20door')).transitions).to.deep.equal([]);
    expect((await get(`?jobId=${job.jobId}&epcPrefix=e280`)).transitions.map((t) => t.epc)).to.deep.equal([B]);
    expect((await get('?jobId=another-job')).transitions).to.deep.equal([]);
    expect((await get('?epcFormat=PURE_ID')).transitions.map((t) => t.epc)).to.deep.equal(['urn:epc:id:sgtin:0614141.812345.6789']);
    expect((await get(`?toTime=${new Date(Date.now() - 60_000).toISOString()}`)).transitions).to.deep.equal([]);

    const first = await get('?pageSize=1');
    expect(first.transitions).to.have.length(1);
    expect(first.moreTransitionsAvailable).to.equal(true);
    const second = await get(`?pageSize=1&pageMarker=${encodeURIComponent(first.nextPageMarker!)}`);
    expect(second.transitions).to.have.length(1);
    expect(second.transitions[0]!.epc).to.not.equal(first.transitions[0]!.epc);
    expect(second.nextPageMarker).to.equal(null);

    const bad = await app.request('GET', `${TRANSITIONS}?destination=UP&epcPrefix=xyz&color=red`);
    expect(bad.status).to.equal(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).to.deep.equal(['query.color', 'query.destination', 'query.epcPrefix']);
    const foreign = await app.request('GET', `${TRANSITIONS}?destination=OUT&pageMarker=${encodeURIComponent(first.nextPageMarker!)}`);
    expect(foreign.status).to.equal(400);
  });

  it('the threshold queue receives each transition its filter passes, as the query shows it, with message ids', async () => {
    const received = await queue.until(2);
    const records = (await get('')).transitions;
    expect(received.map((m) => m.body).sort((a, b) => (a.epc < b.epc ? -1 : 1))).to.deep.equal([...records].sort((a, b) => (a.epc < b.epc ? -1 : 1)));
    expect(queue.ids().size).to.equal(2);
    expect(otherQueue.messages, 'a queue of another job').to.deep.equal([]);
  });

  it('a rebuild of the transitions read model answers the same', async () => {
    const before = await get('?pageSize=100');
    const client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    const redis = createClient({ url: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379' }) as RedisClient;
    await redis.connect();
    try {
      const result = await rebuildReadModel({ model: transitionsReadModel, client, redis, keys: new RedisKeys(app.keyPrefix), logger: createLogger('rebuild-test') });
      expect(result.readModel).to.equal('transitions');
      expect(await get('?pageSize=100')).to.deep.equal(before);
    } finally {
      await redis.quit();
      await client.dispose();
    }
  });

  it('after a restart on the same data the engine writes each transition once: the old ones are not repeated, new walks are decided', async () => {
    const before = (await get('?pageSize=1000')).transitions;
    await app.stop();
    app = await startTestApp(env);
    const D = 'E28011606000020000000D0D';
    await walk('door-a', Date.now() - 4000, [
      [[D, OUT_ANTENNA, -52]], [[D, OUT_ANTENNA, -52]], [[D, OUT_ANTENNA, -52]],
      [[D, IN_ANTENNA, -52]], [[D, IN_ANTENNA, -52]], [[D, IN_ANTENNA, -52]],
    ]);
    const after = await eventually('the new walk', () => get('?pageSize=1000'), (b) => b.transitions.some((t) => t.epc === D));
    expect(after.transitions.filter((t) => t.epc !== D)).to.deep.equal(before);
    expect(after.transitions.filter((t) => t.epc === D).map((t) => t.destination)).to.deep.equal(['IN']);
    // The log itself holds each transition once.
    const client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    try {
      const ids: string[] = [];
      for await (const e of client.readStream(ENGINE_STREAM)) {
        const data = e.event?.data as { transitions?: Array<{ transitionId: string }> } | undefined;
        for (const t of data?.transitions ?? []) ids.push(t.transitionId);
      }
      expect(ids.length).to.equal(new Set(ids).size);
      expect(new Set(ids)).to.deep.equal(new Set(after.transitions.map((t) => t.transitionId)));
    } finally {
      await client.dispose();
    }
  });

  it('a passage cut by a restart is one transition the right way: its first half comes back from the output', async () => {
    // A long quiet time, so the restart itself (quietSeconds + 5 s of engine time without reads) cannot end the passage.
    const recipe = { name: 'door', type: 'THRESHOLD', readerConfigurationName: 'thr', thresholdIds: [], iterationDataLogEnabled: true, transitionParameters: { quietSeconds: 30 } };
    expectStatus(await app.request('PUT', `${RECIPES}/createOrReplace`, { body: recipe }), 200);
    await app.stop();
    app = await startTestApp(env);
    const E = 'E28011606000020000000E0E';
    const F = 'E28011606000020000000F0F';
    const t0 = Date.now() - 10_000;
    // F walks OUT -> IN and settles: its transition is appended while E, entering later, is still on the OUT side.
    const first: Reads[] = [];
    for (let k = 0; k < 10; k++) first.push([[F, k < 3 ? OUT_ANTENNA : IN_ANTENNA, -52], ...(k >= 3 ? [[E, OUT_ANTENNA, -52] as [string, number, number]] : [])]);
    await walk('door-a', t0, first);
    await eventually('F decided', () => get('?pageSize=1000'), (b) => b.transitions.some((t) => t.epc === F));
    const client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    try {
      // The output carries E's open passage (the append that carried F's transition claimed E's reads).
      let carried: unknown;
      for await (const e of client.readStream(ENGINE_STREAM)) {
        const data = e.event?.data as { passages?: Array<{ tracks: Array<{ epc: string }> }> } | undefined;
        if (data?.passages !== undefined) carried = data.passages.flatMap((p) => p.tracks.map((tr) => tr.epc));
      }
      expect(carried).to.include(E);
    } finally {
      await client.dispose();
    }
    await app.stop();
    app = await startTestApp(env);
    const second: Reads[] = [];
    for (let k = 0; k < 8; k++) second.push([[E, IN_ANTENNA, -52]]);
    await walk('door-a', t0 + 5000, second);
    const after = await eventually('E decided', () => get('?pageSize=1000'), (b) => b.transitions.some((t) => t.epc === E));
    expect(after.transitions.filter((t) => t.epc === E).map((t) => t.destination)).to.deep.equal(['IN']);
    expect(after.transitions.filter((t) => t.epc === F).map((t) => t.destination)).to.deep.equal(['IN']);
  });
});
