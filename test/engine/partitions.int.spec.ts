// Two engine instances in one process, two partitions (src/engine/partitioned.ts),
// on the embedded event store and Redis, with the app's projections: each
// instance runs the partitions whose lease it holds and writes only its
// facilities into its partition's stream; the items read model sees both;
// a partition whose lease expires is taken over; when one instance stops,
// the other takes its partition over and goes on from its output, so no
// item change is lost or written twice (history per EPC compared whole);
// a process that holds both partitions gives one up once a second process
// that may own it is live (src/engine/balance.ts), and the last one left
// takes both again, with nothing lost or repeated across either hand-over.
// Facilities: North is partition 0 of 2, South partition 1
// (test/engine/partitions.unit.spec.ts).
import { expect } from 'chai';
import { readStream } from '../../src/core/eventstore';
import { connectRedis, type RedisClient } from '../../src/core/redis/connect';
import { RedisKeys } from '../../src/core/redis/keys';
import { itemEvents } from '../../src/engine/events';
import { startPartitionedEngine, type PartitionedEngine } from '../../src/engine/partitioned';
import { engineStream, partitionOf } from '../../src/engine/partitions';
import { loadConfigOrThrow } from '../../src/config';
import { startTestApp, type TestApp } from '../support/app';
import { expectStatus } from '../readerconfigurations/e2e-support';
import { agentSide, type AgentSide } from '../readerdefinitions/e2e-support';
import { epc, startLiveJob, type LiveJob } from './live-job';
import { silent } from '../support/logger';
import { sleep, waitForValue } from '../support/wait';

const LEASE_MS = 1500;

interface HistoryRecord {
  epc: string;
  fromZone: string;
  toZone: string;
}

describe('engine partitions: two instances, leases, hand-over (embedded store, Redis)', function () {
  this.timeout(180_000);
  let app: TestApp;
  let side: AgentSide;
  let redis: RedisClient;
  let keys: RedisKeys;
  const engines: PartitionedEngine[] = [];
  const jobs = new Map<string, LiveJob>();

  const start = (owned: number[]): PartitionedEngine => {
    const e = startPartitionedEngine(
      { client: side.deps.client, logger: silent, cycleMs: 50, retryMs: 100, clock: () => app.clock.now().getTime() },
      { count: 2, owned, lease: { redis, keyOf: (i) => keys.engineLease(i), ttlMs: LEASE_MS, membersKey: keys.engineMembers } },
    );
    engines.push(e);
    return e;
  };
  const holds = (e: PartitionedEngine, partitions: number[], what: string) =>
    waitForValue(what, async () => e.partitions, (p) => JSON.stringify(p) === JSON.stringify(partitions), { timeoutMs: 30_000 });
  const zone = (facility: string, z: string): string => `${facility}-${z}`;
  /** A report of `epcs` by the facility's reader: DOCK on antenna 1, SHELF (stronger) on antenna 2. */
  const report = async (facility: string, where: 'DOCK' | 'SHELF', epcs: string[]): Promise<void> =>
    jobs.get(facility)?.report(`${facility.toLowerCase()}-1`, epcs.map((e) => ({ epc: e, antennaId: where === 'DOCK' ? 1 : 2, peakRssi: where === 'DOCK' ? -60 : -40 })));
  const history = async (): Promise<Map<string, Array<[string, string]>>> => {
    const res = await app.request('GET', '/data/v1/items/show/history?pageSize=1000');
    expectStatus(res, 200);
    const byEpc = new Map<string, Array<[string, string]>>();
    for (const h of res.body.history as HistoryRecord[]) byEpc.set(h.epc, [...(byEpc.get(h.epc) ?? []), [h.fromZone, h.toZone]]);
    return byEpc;
  };
  const count = (h: Map<string, unknown[]>): number => [...h.values()].reduce((n, l) => n + l.length, 0);
  /** The history once it has `n` records, still `n` after `quietMs` (later than any cycle of the engine): nothing more comes. */
  const settledHistory = async (n: number, quietMs: number): Promise<Map<string, Array<[string, string]>>> => {
    const h = await waitForValue(`${n} records in the history`, history, (x) => count(x) === n, { intervalMs: 100, timeoutMs: 30_000 });
    await sleep(quietMs);
    expect(count(await history()), 'no record twice').to.equal(n);
    return h;
  };
  /** Each partition's stream holds each change once. */
  const expectEachChangeOnce = async (): Promise<void> => {
    for (const partition of [0, 1]) {
      const changes = (await readStream(side.deps.client, engineStream(partition), itemEvents)).events.flatMap((e) => e.data.changes.map((c) => `${c.epc}:${c.kind}:${c.toZone}`));
      expect(new Set(changes).size, `partition ${partition}: ${changes.join(' ')}`).to.equal(changes.length);
    }
  };
  const facilitiesIn = async (partition: number): Promise<string[]> => {
    const events = (await readStream(side.deps.client, engineStream(partition), itemEvents)).events;
    return [...new Set(events.flatMap((e) => e.data.changes.map((c) => c.toFacility ?? c.fromFacility ?? '')))].sort();
  };

  // The epcs: 1-4 in North (partition 0), 11-14 in South (partition 1).
  const north = [1, 2, 3, 4].map(epc);
  const south = [11, 12, 13, 14].map(epc);

  before(async () => {
    expect([partitionOf('North', 2), partitionOf('South', 2)]).to.deep.equal([0, 1]);
    // No engine in the app: the test's two instances are the engine.
    app = await startTestApp({ ROLES: 'api,eventstore,projections,jobs', JOB_ACK_TIMEOUT_SECONDS: '60', HEALTH_CHECKIN_INTERVAL_SECONDS: '3600' });
    side = await agentSide(app);
    redis = await connectRedis(loadConfigOrThrow({}).redisUrl, silent, 10_000);
    keys = new RedisKeys(app.keyPrefix);
    for (const facility of ['North', 'South']) {
      expectStatus(await app.request('POST', '/configuration/v1/facilities/create', { body: { name: facility } }), 200);
      jobs.set(facility, await startLiveJob(app, {
        type: 'INVENTORY',
        suffix: facility,
        readers: [{ name: `${facility.toLowerCase()}-1`, facility, antennaZones: { '1': zone(facility, 'DOCK'), '2': zone(facility, 'SHELF') } }],
        job: { facility },
      }));
    }
  });

  after(async () => {
    for (const e of engines) await e.stop();
    await side?.close();
    await redis?.quit();
    await app?.stop();
  });

  it('each instance runs the partitions it holds the lease of; an expired lease is taken over', async () => {
    // Someone else (a process that died) holds partition 1's lease until it expires.
    await redis.set(keys.engineLease(1), 'a-process-that-died', { PX: LEASE_MS });
    const a = start([0]);
    await holds(a, [0], 'instance A to hold partition 0');
    const b = start([0, 1]);
    await holds(b, [1], 'instance B to take partition 1 once the dead holder lease expired');
    // Longer than a lease: B never takes partition 0 while A renews it.
    await sleep(2 * LEASE_MS);
    expect(a.partitions).to.deep.equal([0]);
    expect(b.partitions).to.deep.equal([1]);
  });

  it('each partition writes its own facilities; the items read model sees both', async () => {
    await report('North', 'DOCK', north);
    await report('South', 'DOCK', south);
    const h = await waitForValue('8 first sightings in the history', history, (x) => count(x) === 8, { intervalMs: 100, timeoutMs: 30_000 });
    for (const e of north) expect(h.get(e), e).to.deep.equal([['ABSENT', 'North-DOCK']]);
    for (const e of south) expect(h.get(e), e).to.deep.equal([['ABSENT', 'South-DOCK']]);
    expect(await facilitiesIn(0)).to.deep.equal(['North']);
    expect(await facilitiesIn(1)).to.deep.equal(['South']);
    const items = await app.request('GET', '/data/v1/items/show?pageSize=1000');
    expectStatus(items, 200);
    expect((items.body.items as Array<{ epc: string }>).map((i) => i.epc).sort()).to.deep.equal([...north, ...south].sort());
  });

  it('stopping one instance hands its partition to the other, which goes on from its output: nothing lost or repeated', async () => {
    const [a, b] = engines as [PartitionedEngine, PartitionedEngine];
    app.clock.advance(1100); // past the 1 s compute window: the DOCK reads no longer compete with SHELF ones
    // Reports of North while its partition changes hands: before the stop, during it, after it.
    await report('North', 'SHELF', [north[0] ?? '']);
    const stopping = a.stop();
    await report('North', 'SHELF', [north[1] ?? '']);
    await stopping;
    await report('North', 'SHELF', [north[2] ?? '']);
    await report('South', 'SHELF', [south[0] ?? '']);
    await holds(b, [0, 1], 'instance B to take partition 0 over');
    await report('North', 'DOCK', [epc(5)]);
    const h = await settledHistory(13, 1000);
    const moved = [['ABSENT', 'North-DOCK'], ['North-DOCK', 'North-SHELF']];
    expect(h.get(north[0] ?? '')).to.deep.equal(moved);
    expect(h.get(north[1] ?? '')).to.deep.equal(moved);
    expect(h.get(north[2] ?? '')).to.deep.equal(moved);
    expect(h.get(north[3] ?? '')).to.deep.equal([['ABSENT', 'North-DOCK']]);
    expect(h.get(epc(5))).to.deep.equal([['ABSENT', 'North-DOCK']]);
    expect(h.get(south[0] ?? '')).to.deep.equal([['ABSENT', 'South-DOCK'], ['South-DOCK', 'South-SHELF']]);
    // The streams say the same: each change once, in its partition's stream.
    await expectEachChangeOnce();
    expect(await facilitiesIn(0)).to.deep.equal(['North']);
  });

  it('balancing: the instance holding both gives one up to a second that may own both, which goes on from its output', async () => {
    const b = engines[1] as PartitionedEngine;
    const c = start([0, 1]);
    // Reports of South while its partition changes hands: before B gives it up, while nobody runs it, after C took it.
    await report('South', 'SHELF', [south[1] ?? '']);
    await holds(b, [0], 'instance B to give partition 1 up once C is live');
    await report('South', 'SHELF', [south[2] ?? '']);
    await holds(c, [1], 'instance C to take partition 1');
    // The live members: B and C (A left when it stopped).
    expect(await redis.hLen(keys.engineMembers)).to.equal(2);
    await report('South', 'SHELF', [south[3] ?? '']);
    await report('North', 'DOCK', [epc(6)]);
    // Longer than a lease: nothing changes hands again.
    const h = await settledHistory(17, 2 * LEASE_MS);
    expect(b.partitions).to.deep.equal([0]);
    expect(c.partitions).to.deep.equal([1]);
    for (const e of south) expect(h.get(e), e).to.deep.equal([['ABSENT', 'South-DOCK'], ['South-DOCK', 'South-SHELF']]);
    expect(h.get(epc(6))).to.deep.equal([['ABSENT', 'North-DOCK']]);
    await expectEachChangeOnce();
    expect(await facilitiesIn(1)).to.deep.equal(['South']);
  });

  it('balancing: when one of two stops, the other takes both again; nothing lost or repeated', async () => {
    const [, b, c] = engines as [PartitionedEngine, PartitionedEngine, PartitionedEngine];
    app.clock.advance(1100); // past the compute window again: the DOCK reads of the last test no longer compete
    await report('North', 'SHELF', [north[3] ?? '']);
    const stopping = b.stop();
    await report('North', 'SHELF', [epc(5)]);
    await stopping;
    expect(await redis.hKeys(keys.engineMembers), 'a stopped instance leaves at once').to.have.length(1);
    await report('South', 'DOCK', [epc(15)]);
    await holds(c, [0, 1], 'instance C to take partition 0 over');
    await report('North', 'SHELF', [epc(6)]);
    const h = await settledHistory(21, 1000);
    const moved = [['ABSENT', 'North-DOCK'], ['North-DOCK', 'North-SHELF']];
    for (const e of [north[3] ?? '', epc(5), epc(6)]) expect(h.get(e), e).to.deep.equal(moved);
    expect(h.get(epc(15))).to.deep.equal([['ABSENT', 'South-DOCK']]);
    await expectEachChangeOnce();
    expect(await facilitiesIn(0)).to.deep.equal(['North']);
    expect(await facilitiesIn(1)).to.deep.equal(['South']);
  });
});
