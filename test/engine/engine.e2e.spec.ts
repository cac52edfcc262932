// The item engine wired into the app (role `engine`): reports posted through
// the agent API of a real job end up as ItemsChanged on ENGINE_STREAM
// (FIRST_SEEN from ABSENT, ZONE_CHANGE between antenna zones); a restart on
// the same data directory resumes after the last inputPosition (reports
// stored while no engine ran are processed once, nothing is repeated); a
// second engine instance running beside the app's is fenced and resyncs
// instead of duplicating. Compared: the sequence of history records per EPC.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { readStream } from '../../src/core/eventstore';
import { silent } from '../support/logger';
import { SkewClock } from '../support/clock';
import { ENGINE_STREAM, itemEvents } from '../../src/engine/events';
import { startEngineWorker } from '../../src/engine/worker';
import { startTestApp, waitForCaughtUp, type TestApp } from '../support/app';
import { agentSide, type AgentSide } from '../readerdefinitions/e2e-support';
import { epc, postReport, startInventoryJob, type RunningJob } from './e2e-support';
import { sleep, waitForValue } from '../support/wait';

interface Record_ {
  kind: string;
  from: string;
  to: string;
}

describe('item engine wiring (role engine)', function () {
  this.timeout(120_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'tagtrail-engine-'));
  const keyPrefix = `tagtrail-test-${crypto.randomUUID()}:`;
  const env = { DATA_DIR: dataDir, REDIS_KEY_PREFIX: keyPrefix, JOB_ACK_TIMEOUT_SECONDS: '60' };
  let app: TestApp;
  let side: AgentSide | undefined;
  let job: RunningJob;
  let jobId = '';
  /** One clock across the restarts of the file: the compute window is passed by moving it on, not by sleeping. */
  const clock = new SkewClock();
  let t = clock.now().getTime();

  after(async () => {
    await side?.close();
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const closeSide = async (): Promise<void> => {
    await side?.close();
    side = undefined;
  };
  /** One report of `epcs` on `antennaId`, read now (each report a little later than the previous one). */
  const report = async (antennaId: number, epcs: string[], peakRssi = -60): Promise<void> => {
    t = Math.max(t + 1000, clock.now().getTime());
    await postReport(app, job, t, antennaId, epcs, peakRssi);
  };
  const output = async () => {
    const s = side ?? (side = await agentSide(app));
    return (await readStream(s.deps.client, ENGINE_STREAM, itemEvents)).events;
  };
  /** History records (FIRST_SEEN, ZONE_CHANGE, EXPIRED) per EPC, in output order. */
  const history = async (): Promise<Map<string, Record_[]>> => {
    const byEpc = new Map<string, Record_[]>();
    for (const e of await output()) {
      for (const c of e.data.changes) {
        if (c.kind === 'HEARTBEAT' || c.kind === 'MOVED') continue;
        const list = byEpc.get(c.epc) ?? [];
        list.push({ kind: c.kind, from: c.fromZone, to: c.toZone });
        byEpc.set(c.epc, list);
      }
    }
    return byEpc;
  };
  const until = async (what: string, ok: (h: Map<string, Record_[]>) => boolean): Promise<Map<string, Record_[]>> =>
    waitForValue(what, history, ok, { intervalMs: 100 });
  const count = (h: Map<string, Record_[]>): number => [...h.values()].reduce((n, l) => n + l.length, 0);
  const first = (zone: string): Record_ => ({ kind: 'FIRST_SEEN', from: 'ABSENT', to: zone });
  const move = (from: string, to: string): Record_ => ({ kind: 'ZONE_CHANGE', from, to });

  it('reports through the agent API of a running job become FIRST_SEEN and ZONE_CHANGE on ENGINE_STREAM', async () => {
    app = await startTestApp(env, { clock });
    job = await startInventoryJob(app);
    jobId = job.jobId;

    await report(1, [epc(1), epc(2), epc(3)]);
    clock.advance(1100); // past the 1 s compute window: the DOCK reads no longer compete
    await report(2, [epc(1)], -40);
    const h = await until('three sightings and a move', (x) => count(x) === 4);
    expect(h.get(epc(1))).to.deep.equal([first('DOCK'), move('DOCK', 'SHELF')]);
    expect(h.get(epc(2))).to.deep.equal([first('DOCK')]);
    expect(h.get(epc(3))).to.deep.equal([first('DOCK')]);
    const changes = (await output()).flatMap((e) => e.data.changes);
    expect(changes.find((c) => c.epc === epc(2))).to.include({ jobId, toFacility: 'DEFAULT', fromFacility: null, reportToHistoryEnabled: true });
  });

  it('a restart on the same data resumes after the last inputPosition: no duplicate, no missing change', async () => {
    await closeSide();
    await app.stop({ keepRedis: true });
    // Input stored while no engine runs (what a crash leaves: input after the last inputPosition).
    app = await startTestApp({ ...env, ROLES: 'api,eventstore,projections,jobs' }, { clock });
    // Counted after the stop: a graceful stop appends an event claiming the input it handled since its last append.
    const before = (await output()).length;
    const lastBefore = (await output()).at(-1)?.data.inputPosition;
    await report(2, [epc(2), epc(4)], -40); // epc 2 moves to SHELF, epc 4 is new
    await sleep(1000);
    expect((await output()).length, 'no engine, no output').to.equal(before);
    await closeSide();
    await app.stop({ keepRedis: true });
    app = await startTestApp(env, { clock });
    clock.advance(1100);
    await report(1, [epc(1)], -40); // back to DOCK
    const h = await until('after restart', (x) => count(x) === 7);
    await waitForCaughtUp(app);
    expect(count(await history()), 'nothing more').to.equal(7);
    expect(h.get(epc(1))).to.deep.equal([first('DOCK'), move('DOCK', 'SHELF'), move('SHELF', 'DOCK')]);
    expect(h.get(epc(2))).to.deep.equal([first('DOCK'), move('DOCK', 'SHELF')]);
    expect(h.get(epc(3))).to.deep.equal([first('DOCK')]);
    expect(h.get(epc(4))).to.deep.equal([first('SHELF')]);
    const positions = (await output()).map((e) => BigInt(e.data.inputPosition));
    expect(positions.every((p, i) => i === 0 || p >= (positions[i - 1] ?? 0n)), 'inputPosition never goes back').to.equal(true);
    expect(lastBefore).to.be.a('string');
  });

  it('a second engine instance beside the running one is fenced and resyncs: nothing is duplicated', async () => {
    const s = side ?? (side = await agentSide(app));
    const second = startEngineWorker({ client: s.deps.client, logger: silent, cycleMs: 50, retryMs: 100, clock: () => clock.now().getTime() });
    try {
      await waitForCaughtUp(app); // the second instance is at the tail of the log too
      for (let k = 0; k < 5; k++) {
        await report(k % 2 === 0 ? 2 : 1, [epc(1), epc(5 + k)], -30);
        clock.advance(1100);
      }
      // 5 new tags; epc 1 is in DOCK and alternates SHELF, DOCK, SHELF, DOCK, SHELF.
      const h = await until('both engines', (x) => count(x) === 7 + 5 + 5);
      await waitForCaughtUp(app);
      expect(count(await history())).to.equal(17);
      expect(h.get(epc(1))?.slice(3)).to.deep.equal([move('DOCK', 'SHELF'), move('SHELF', 'DOCK'), move('DOCK', 'SHELF'), move('SHELF', 'DOCK'), move('DOCK', 'SHELF')]);
      for (let k = 0; k < 5; k++) expect(h.get(epc(5 + k)), `epc ${5 + k}`).to.deep.equal([first(k % 2 === 0 ? 'SHELF' : 'DOCK')]);
      expect(second.runs, 'runs of the second instance').to.be.at.least(1);
    } finally {
      await second.stop();
    }
  });

  it('lag counts input whose changes wait for the next cycle: at lag 0 they are on ENGINE_STREAM', async () => {
    await closeSide();
    await app.stop({ keepRedis: true });
    app = await startTestApp({ ...env, ROLES: 'api,eventstore,projections,jobs' }, { clock });
    const s = side ?? (side = await agentSide(app));
    // A slow cycle holds the report's changes for 1.5 s after the report is handled.
    const worker = startEngineWorker({ client: s.deps.client, logger: silent, cycleMs: 1500, retryMs: 100, lagProbe: false, clock: () => clock.now().getTime() });
    try {
      await waitForValue('the engine to catch up with the log', async () => (await worker.lag())?.n, (n) => n === 0, { intervalMs: 20 });
      clock.advance(1100);
      await report(1, [epc(20)]);
      await waitForValue('the engine lag to reach 0 again', async () => (await worker.lag())?.n, (n) => n === 0, { intervalMs: 20 });
      expect((await history()).get(epc(20)), 'the new tag when the lag says the report is done').to.deep.equal([first('DOCK')]);
    } finally {
      await worker.stop();
    }
  });
});
