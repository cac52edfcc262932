// The scale-out layout of docs/scaling.md as separate processes on this
// machine (./layout.ts: the event store alone, 2 api, 2 engine partitions,
// projections, relay with jobs), driven with the same deterministic input as
// one all-roles process (startTestApp): readers in two facilities, North
// (partition 0 of 2) and South (partition 1), reports sent round robin to the
// two api processes. Engine A runs partition 0, engine B partition 1 and may
// take 0 over; A is SIGKILLed mid-run while reports keep coming. At the end
// the items read model, the history of every EPC and the messages of an item
// queue equal the single process's, nothing lost, nothing twice.
//
// The input is deterministic whatever the timing: every round raises the
// peak RSSI by more than the INVENTORY hysteresis margin, so a tag's newest
// read always decides its zone (as in test/engine/crash.int.spec.ts), and no
// recipe expires tags. Both runs get the same read times, so the records
// are compared whole but for the job ids (each run has its own jobs).
import { expect } from 'chai';
import { INVENTORY_HYSTERESIS_DB } from '../../src/engine/inventory';
import { partitionOf } from '../../src/engine/partitions';
import { requestAt, startTestApp, sumOfMetrics, waitForCaughtUp, waitForReadModels, type TestApp } from '../support/app';
import { waitFor, waitForValue } from '../support/wait';
import { expectStatus } from '../readerconfigurations/e2e-support';
import { mix, startLiveJob, type LiveJob, type Observation } from '../engine/live-job';
import { consume, type Consumer } from '../queues/support';
import { metricsText, metricValue, startSplitLayout, type SplitLayout } from './layout';

/** Short, so the take-over comes soon; renewed every second, which outlasts the stalls of a loaded machine. */
const LEASE_MS = 3000;
/** Restoring a partition and replaying its input after the take-over, on a loaded two-core machine. */
const TAKEOVER_WORK_MS = 30_000;
const CATCH_UP_MS = 60_000;
const FACILITIES = ['North', 'South'] as const;
const EPCS_PER_FACILITY = 12;
const ROUNDS = 24;
/** Engine A is killed right after this round was posted. */
const KILL_AFTER_ROUND = 9;
const ZONES = { 1: 'DOCK', 2: 'SHELF' } as const;
const COMMON = { JOB_ACK_TIMEOUT_SECONDS: '60', HEALTH_CHECKIN_INTERVAL_SECONDS: '3600' };

const epcOf = (facility: number, k: number): string => `E28011606000D${facility}${k.toString(16).toUpperCase().padStart(10, '0')}`;

/** Round `r` of a facility: most of its EPCs, each on a pseudo-random antenna, louder than any read before. */
function observations(facility: number, r: number): Observation[] {
  const seen: Observation[] = [];
  for (let k = 0; k < EPCS_PER_FACILITY; k++) {
    const m = mix(k + 100 * facility, r);
    if (r > 0 && m % 5 === 0) continue;
    seen.push({ epc: epcOf(facility, k), antennaId: ((m >>> 3) % 2) + 1, peakRssi: -100 + r * (INVENTORY_HYSTERESIS_DB + 1) });
  }
  return seen;
}

interface Side {
  readonly name: string;
  readonly app: TestApp;
  readonly jobs: Map<string, LiveJob>;
  readonly queue: Consumer;
}

type Row = Record<string, unknown>;
/** What differs between two runs of the same input: the ids of each run's own jobs (times are the reads', the same in both). */
const RUN_SPECIFIC = new Set(['jobId']);
const deterministic = (r: Row): Row => Object.fromEntries(Object.entries(r).filter(([k]) => !RUN_SPECIFIC.has(k)));

/** Every page of a paged query; the markers go to whichever api process the side's balancer picks next. */
async function allPages(app: TestApp, path: string, field: string): Promise<Row[]> {
  const rows: Row[] = [];
  let marker: string | undefined;
  for (;;) {
    const res = await app.request('GET', `${path}?pageSize=40${marker === undefined ? '' : `&pageMarker=${encodeURIComponent(marker)}`}`);
    expectStatus(res, 200);
    const page = res.body[field] as Row[];
    rows.push(...page);
    marker = res.body.nextPageMarker as string | undefined;
    if (page.length === 0 || marker === undefined || marker === null || marker === '') return rows;
  }
}

const byEpc = (rows: readonly Row[]): Map<string, Row[]> => {
  const m = new Map<string, Row[]>();
  for (const r of rows) m.set(String(r['epc']), [...(m.get(String(r['epc'])) ?? []), deterministic(r)]);
  return new Map([...m.entries()].sort(([a], [b]) => a.localeCompare(b)));
};

describe('split layout as separate processes: the output of one process, and an engine partition taken over after a SIGKILL', function () {
  this.timeout(600_000);
  let layout: SplitLayout | undefined;
  let singleApp: TestApp | undefined;
  let single: Side | undefined;
  let split: Side | undefined;
  const consumers: Consumer[] = [];

  const setUp = async (name: string, app: TestApp): Promise<Side> => {
    const jobs = new Map<string, LiveJob>();
    for (const facility of FACILITIES) {
      expectStatus(await app.request('POST', '/configuration/v1/facilities/create', { body: { name: facility } }), 200);
      jobs.set(facility, await startLiveJob(app, {
        type: 'INVENTORY',
        suffix: facility,
        readers: [{ name: `${facility.toLowerCase()}-1`, facility, antennaZones: { '1': `${facility}-${ZONES[1]}`, '2': `${facility}-${ZONES[2]}` } }],
        job: { facility },
      }));
    }
    const configured = await app.request('PUT', '/data/v1/items/queues', { body: {} });
    expectStatus(configured, 200);
    const queue = await consume(String(configured.body.queue));
    consumers.push(queue);
    return { name, app, jobs, queue };
  };
  const sides = (): [Side, Side] => {
    if (single === undefined || split === undefined) throw new Error('not set up');
    return [single, split];
  };
  const running = (): SplitLayout => {
    if (layout === undefined) throw new Error('no layout');
    return layout;
  };
  /** Posts round `r` to both sides with the same read times; the facilities take turns at going first, so each reaches both api processes. */
  const postRound = async (r: number): Promise<void> => {
    const at = new Date();
    const order = r % 2 === 0 ? [0, 1] : [1, 0];
    for (const side of sides()) {
      for (const f of order) {
        const facility = FACILITIES[f] ?? '';
        await side.jobs.get(facility)?.report(`${facility.toLowerCase()}-1`, observations(f, r), at);
      }
    }
  };
  const partitionGauge = async (url: string, partition: number): Promise<number | undefined> => metricValue(await metricsText(url), 'tagtrail_engine_partition_owned', ['partition', String(partition)]);
  /** GET /metrics of an api process (Admin). */
  const apiMetrics = async (app: TestApp): Promise<string> => {
    const res = await app.request('GET', '/metrics');
    expectStatus(res, 200);
    return String(res.body);
  };

  before(async function () {
    expect(FACILITIES.map((f) => partitionOf(f, 2))).to.deep.equal([0, 1]);
    // Both start at once; whichever started is stopped in after, even when the other failed.
    const [app, started] = await Promise.allSettled([startTestApp(COMMON), startSplitLayout({ leaseMs: LEASE_MS, env: COMMON })]);
    if (app.status === 'fulfilled') singleApp = app.value;
    if (started.status === 'fulfilled') layout = started.value;
    if (app.status === 'rejected') throw app.reason;
    if (started.status === 'rejected') throw started.reason;
    single = await setUp('one process', app.value);
    await waitForReadModels(`${new URL(started.value.apiUrls[0]).origin}/healthz`);
    split = await setUp('split layout', started.value.balanced);
  });

  after(async () => {
    for (const c of consumers) await c.close();
    await singleApp?.stop();
    await layout?.stop();
  });

  it('each engine process runs one partition; reports reach both api processes', async () => {
    const [a, b] = running().engines;
    expect(await partitionGauge(a.metricsUrl, 0), 'engine A runs partition 0').to.equal(1);
    expect(await partitionGauge(b.metricsUrl, 1), 'engine B runs partition 1').to.equal(1);
    expect(await partitionGauge(b.metricsUrl, 0), 'engine B does not run partition 0').to.not.equal(1);
    for (let r = 0; r <= KILL_AFTER_ROUND; r++) await postRound(r);
    for (const url of running().apiUrls) {
      const text = await apiMetrics({ ...running().balanced, request: requestAt(url) });
      for (const reader of ['north-1', 'south-1']) {
        expect(metricValue(text, 'tagtrail_tag_reports_accepted_total', ['reader', reader]), `reports of ${reader} accepted by ${url}`).to.be.greaterThan(0);
      }
    }
  });

  it('SIGKILL of engine A mid-run: engine B takes partition 0 over within the lease, while reports keep coming', async () => {
    const [a, b] = running().engines;
    a.proc.child.kill('SIGKILL');
    expect(await a.proc.exited).to.equal('SIGKILL');
    await postRound(KILL_AFTER_ROUND + 1);
    // A dead holder's lease runs out after ENGINE_LEASE_MS; B tries every third of it, then restores the partition.
    await waitFor('engine B to run partition 0', async () => (await partitionGauge(b.metricsUrl, 0)) === 1, { timeoutMs: LEASE_MS + LEASE_MS / 3 + TAKEOVER_WORK_MS, intervalMs: 100 });
    for (let r = KILL_AFTER_ROUND + 2; r < ROUNDS; r++) await postRound(r);
  });

  it('once both have caught up, the items read model is the single process\'s, item by item', async () => {
    const [one, many] = sides();
    const l = running();
    await waitForCaughtUp(one.app, CATCH_UP_MS);
    const splitLag = async (): Promise<number> =>
      sumOfMetrics(await metricsText(l.engines[1].metricsUrl), ['tagtrail_engine_lag_events']) + sumOfMetrics(await metricsText(l.projections.metricsUrl), ['tagtrail_projection_lag_events']);
    await waitFor('the split layout\'s engine and projections to catch up', async () => (await splitLag()) === 0, { timeoutMs: CATCH_UP_MS, intervalMs: 100 });
    const expected = byEpc(await allPages(one.app, '/data/v1/items/show', 'items'));
    expect(expected.size).to.equal(FACILITIES.length * EPCS_PER_FACILITY);
    expect(byEpc(await allPages(many.app, '/data/v1/items/show', 'items'))).to.deep.equal(expected);
  });

  it('the history of every EPC is the single process\'s, whole: nothing lost or repeated across the hand-over', async () => {
    const [one, many] = sides();
    const expected = byEpc(await allPages(one.app, '/data/v1/items/show/history', 'history'));
    const records = [...expected.values()].reduce((n, h) => n + h.length, 0);
    expect(records, 'moves beyond the first sightings').to.be.greaterThan(FACILITIES.length * EPCS_PER_FACILITY * 3);
    expect(byEpc(await allPages(many.app, '/data/v1/items/show/history', 'history'))).to.deep.equal(expected);
  });

  it('the item queue got the single process\'s messages, each once', async () => {
    const [one, many] = sides();
    const l = running();
    const relayLag = (text: string): number => sumOfMetrics(text, ['tagtrail_relay_lag_events']);
    await waitFor('both relays to have every message confirmed', async () => relayLag(await apiMetrics(one.app)) === 0 && relayLag(await metricsText(l.relay.metricsUrl)) === 0, { timeoutMs: CATCH_UP_MS, intervalMs: 100 });
    const expectedCount = [...byEpc(await allPages(one.app, '/data/v1/items/show/history', 'history')).values()].reduce((n, h) => n + h.length, 0);
    for (const side of [one, many]) await waitForValue(`${side.name}: ${expectedCount} queue messages`, () => side.queue.messages.length, (n) => n >= expectedCount, { timeoutMs: CATCH_UP_MS, intervalMs: 100 });
    for (const side of [one, many]) expect(side.queue.ids().size, `${side.name}: messageIds unique`).to.equal(side.queue.messages.length);
    const bodies = (side: Side): Map<string, Row[]> => byEpc(side.queue.messages.map((m) => m.body as Row));
    expect(bodies(many)).to.deep.equal(bodies(one));
  });
});
