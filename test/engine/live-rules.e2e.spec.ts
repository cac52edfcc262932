// Item rules through the LIVE wiring (real app, agent API, engine worker,
// items projection, history query, AMQP relay), beyond what the pure-core
// tests cover: LOCATION jobs with x/y observations and a current zone map,
// expiry driven by time, items moving between facilities, and the three
// reportTo... flags. Durations are short; every wait polls with a deadline.
// A "did not happen" is only asserted after something later in the same
// ordered stream (engine input, ENGINE_STREAM, relay) did happen.
import { expect } from 'chai';
import { EventStoreDBClient } from '@eventstore/db-client';
import { readStream } from '../../src/core/eventstore';
import { ENGINE_STREAM, itemEvents } from '../../src/engine/events';
import { startTestApp, type TestApp } from '../support/app';
import { expectStatus } from '../readerconfigurations/e2e-support';
import { consume, type Consumer } from '../queues/support';
import { epc, eventually, startLiveJob } from './live-job';
import { sleep } from '../support/wait';

interface Item {
  epc: string;
  zone: string;
  facility: string | null;
  floor: string | null;
  xLocation: number | null;
  yLocation: number | null;
  zLocation: number | null;
  jobId: string;
  lastModifiedTime: string;
}
interface HistoryRecord {
  epc: string;
  fromZone: string;
  toZone: string;
  fromFacility: string | null;
  toFacility: string | null;
  fromX: number | null;
  fromY: number | null;
  toX: number | null;
  toY: number | null;
  observationTime: string;
}

const ENV = { JOB_ACK_TIMEOUT_SECONDS: '60', HEALTH_CHECKIN_INTERVAL_SECONDS: '3600' };

function queries(app: () => TestApp) {
  const get = async (path: string): Promise<any> => { // eslint-disable-line @typescript-eslint/no-explicit-any
    const res = await app().request('GET', path);
    expectStatus(res, 200);
    return res.body;
  };
  const items = async (query = ''): Promise<Map<string, Item>> =>
    new Map(((await get(`/data/v1/items/show?pageSize=1000${query}`)).items as Item[]).map((i) => [i.epc, i]));
  const history = async (query = ''): Promise<HistoryRecord[]> => (await get(`/data/v1/items/show/history?pageSize=1000${query}`)).history as HistoryRecord[];
  const historyOf = async (e: string): Promise<Array<[string, string]>> => (await history()).filter((h) => h.epc === e).map((h) => [h.fromZone, h.toZone]);
  return { items, history, historyOf };
}

describe('item rules through the live wiring', function () {
  this.timeout(120_000);

  describe('LOCATION job: x/y observations, current zone map with polygons', () => {
    let app: TestApp;
    const q = queries(() => app);
    after(async () => app?.stop());

    it('places items by point in polygon on the reader floor and records only moves of at least minimumMovementInMeters', async () => {
      app = await startTestApp(ENV);
      // TRI is a right triangle: (8, 8) lies in its bounding box but not in it.
      const zones = [
        { name: 'TRI', floor: '1', points: [{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 0, y: 10 }] },
        { name: 'BOX', floor: '1', points: [{ x: 20, y: 0 }, { x: 30, y: 0 }, { x: 30, y: 10 }, { x: 20, y: 10 }] },
        // Same place on another floor: must not catch tags of a reader on floor 1.
        { name: 'UPSTAIRS', floor: '2', points: [{ x: 0, y: 0 }, { x: 30, y: 0 }, { x: 30, y: 10 }, { x: 0, y: 10 }] },
      ];
      expectStatus(await app.request('POST', '/configuration/v1/zoneMaps/create', { body: { name: 'hall', zones } }), 200);
      expectStatus(await app.request('POST', '/control/v1/currentZoneMap/select/hall'), 200);
      const job = await startLiveJob(app, {
        type: 'LOCATION',
        readers: [{ name: 'xa-1', placement: { x: 15, y: 5, z: 3, yaw: 0, pitch: 0, roll: 0, floor: '1' } }],
        recipe: { reportingInterval: 0, computeWindow: 1, minimumMovementInMeters: 2 },
      });
      const [A, B, C, D, E] = [1, 2, 3, 4, 5].map(epc) as [string, string, string, string, string];
      const at = async (observations: Array<[string, number, number]>) => job.report('xa-1', observations.map(([e, x, y]) => ({ epc: e, x, y })));

      // Phase 1: first sightings. E has no x/y: a LOCATION reader that could not locate it proves nothing.
      await at([[A, 2, 2], [B, 8, 8], [C, 22, 2], [D, 9.5, 0.2]]);
      await job.report('xa-1', [{ epc: E }]);
      let items = await eventually('first sightings', () => q.items(), (m) => m.size === 4);
      expect(items.get(A)).to.include({ zone: 'TRI', floor: '1', facility: 'DEFAULT', xLocation: 2, yLocation: 2 });
      expect(items.get(B)).to.include({ zone: 'FACILITY', xLocation: 8, yLocation: 8 });
      expect(items.get(C)).to.include({ zone: 'BOX', xLocation: 22, yLocation: 2 });
      expect(items.get(D)).to.include({ zone: 'TRI', xLocation: 9.5 });
      expect(items.has(E), 'an observation without x/y places nothing').to.equal(false);

      // Phase 2 (old samples out of the 1 s window): moves below 2 m, one across
      // the TRI border (D: 9.5 -> 10.5), are not reported; C's 8.5 m inside BOX is
      // (item updated, no history record).
      app.clock.advance(1100);
      await at([[A, 2.5, 2.5], [D, 10.5, 0.2], [C, 28, 8]]);
      items = await eventually('C moved inside BOX', () => q.items(), (m) => m.get(C)?.xLocation === 28);
      expect(items.get(A)).to.include({ zone: 'TRI', xLocation: 2, yLocation: 2 });
      expect(items.get(D)).to.include({ zone: 'TRI', xLocation: 9.5 });
      expect(items.get(C)).to.include({ zone: 'BOX', yLocation: 8 });

      // Phase 3: A goes from TRI to BOX (a zone change over the minimum); B
      // enters TRI; D drifts on and now is 2 m from where it was last reported.
      app.clock.advance(1100);
      await at([[A, 25, 6], [B, 3, 3], [D, 11.5, 0.2]]);
      items = await eventually('A in BOX', () => q.items(), (m) => m.get(A)?.zone === 'BOX' && m.get(B)?.zone === 'TRI' && m.get(D)?.zone === 'FACILITY');
      expect(items.get(A)).to.include({ xLocation: 25, yLocation: 6 });
      const history = await eventually('history of the moves', () => q.history(), (h) => h.length === 7);
      const of = (e: string) => history.filter((h) => h.epc === e).map((h) => [h.fromZone, h.toZone]);
      expect(of(A)).to.deep.equal([['ABSENT', 'TRI'], ['TRI', 'BOX']]);
      expect(of(B)).to.deep.equal([['ABSENT', 'FACILITY'], ['FACILITY', 'TRI']]);
      expect(of(C)).to.deep.equal([['ABSENT', 'BOX']]);
      expect(of(D)).to.deep.equal([['ABSENT', 'TRI'], ['TRI', 'FACILITY']]);
      const move = history.find((h) => h.epc === A && h.fromZone === 'TRI');
      expect(move).to.include({ fromX: 2, fromY: 2, toX: 25, toY: 6, fromFacility: 'DEFAULT', toFacility: 'DEFAULT' });

      // zoneTransitionsOnly=false adds the moves inside a zone (C's 8.5 m in
      // BOX), as an item queue with that filter carries them; moves below the
      // minimum (A, D in phase 2) are in neither.
      const withMoves = await q.history('&zoneTransitionsOnly=false');
      expect(withMoves).to.have.length(8);
      const inside = withMoves.filter((h) => h.fromZone === h.toZone);
      expect(inside).to.have.length(1);
      expect(inside[0]).to.include({ epc: C, fromZone: 'BOX', toZone: 'BOX', fromX: 22, fromY: 2, toX: 28, toY: 8 });
      expect(withMoves.filter((h) => h.fromZone !== h.toZone), 'the transitions are the same records').to.deep.equal(history);
      expect(await q.history('&zoneTransitionsOnly=true')).to.deep.equal(history);
      expect(await q.history('&zoneTransitionsOnly=false&minDistanceMoved=8')).to.deep.equal([inside[0], move]);
    });
  });

  describe('INVENTORY job with a short tagExpiryDuration', () => {
    let app: TestApp;
    const q = queries(() => app);
    after(async () => app?.stop());

    it('a tag no longer reported becomes ABSENT by the passing of time, with an EXPIRED history record at last seen + expiry', async () => {
      app = await startTestApp(ENV);
      const job = await startLiveJob(app, {
        type: 'INVENTORY',
        readers: [{ name: 'dock-1', antennaZones: { '1': 'DOCK' } }],
        recipe: { computeWindow: 1, tagExpiryDuration: 'PT2S' },
      });
      const seen = app.clock.now();
      await job.report('dock-1', [{ epc: epc(1) }, { epc: epc(2) }], seen);
      await eventually('first sightings', () => q.items(), (m) => m.get(epc(1))?.zone === 'DOCK' && m.get(epc(2))?.zone === 'DOCK');
      // No further report of anything: only time passes (moved on by the expiry, not waited for).
      app.clock.advance(2000);
      const items = await eventually('expiry', () => q.items(), (m) => m.get(epc(1))?.zone === 'ABSENT' && m.get(epc(2))?.zone === 'ABSENT');
      // Still listed in its facility, with no coordinates at all.
      expect(items.get(epc(1))).to.include({ facility: 'DEFAULT', floor: null, xLocation: null, yLocation: null, zLocation: null });
      const history = await eventually('EXPIRED records', () => q.history(), (h) => h.length === 4);
      const expired = history.filter((h) => h.epc === epc(1));
      expect(expired.map((h) => [h.fromZone, h.toZone])).to.deep.equal([['ABSENT', 'DOCK'], ['DOCK', 'ABSENT']]);
      const expiredAt = Date.parse(expired[1]?.observationTime ?? '');
      const firstAt = Date.parse(expired[0]?.observationTime ?? '');
      expect(firstAt, 'first sighting at the read time').to.equal(seen.getTime());
      expect(expiredAt - firstAt, 'EXPIRED is observed at last seen + tagExpiryDuration').to.equal(2000);
      expect(items.get(epc(1))?.lastModifiedTime).to.equal(expired[1]?.observationTime);
      // The exit goes to no facility: toFacility=DEFAULT means "arrived in or
      // moved inside DEFAULT" and leaves exits out; fromFacility=DEFAULT has them.
      expect(expired[1]).to.include({ fromFacility: 'DEFAULT', toFacility: null, toZone: 'ABSENT' });
      expect((await q.history('&toFacility=DEFAULT')).map((h) => h.toZone)).to.deep.equal(['DOCK', 'DOCK']);
      expect((await q.history('&fromFacility=DEFAULT')).map((h) => h.toZone)).to.deep.equal(['ABSENT', 'ABSENT']);
    });
  });

  describe('several facilities: moves between them and the reportTo... flags', () => {
    let app: TestApp;
    let client: EventStoreDBClient;
    let queue: Consumer | undefined;
    const q = queries(() => app);
    after(async () => {
      await queue?.close();
      await client?.dispose();
      await app?.stop();
    });

    it('carries from/to facility; history off: item only; database off: history only; message queue off: no message', async () => {
      app = await startTestApp(ENV);
      client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
      // North: every flag on; South: no history; West: no item updates; East: no messages.
      const flags = {
        North: {},
        South: { reportToHistoryEnabled: false },
        West: { reportToDatabaseEnabled: false },
        East: { reportToMessageQueueEnabled: false },
      } as const;
      const jobs = new Map<string, Awaited<ReturnType<typeof startLiveJob>>>();
      for (const [facility, job] of Object.entries(flags)) {
        expectStatus(await app.request('POST', '/configuration/v1/facilities/create', { body: { name: facility } }), 200);
        const reader = `${facility.toLowerCase()}-1`;
        jobs.set(facility, await startLiveJob(app, {
          type: 'INVENTORY',
          suffix: facility,
          readers: [{ name: reader, facility, antennaZones: { '1': `${facility}-DOCK` } }],
          job: { facility, ...job },
        }));
      }
      const report = async (facility: string, epcs: string[]) => jobs.get(facility)?.report(`${facility.toLowerCase()}-1`, epcs.map((e) => ({ epc: e })));
      const queued = await app.request('PUT', '/data/v1/items/queues', { body: {} });
      expectStatus(queued, 200);
      queue = await consume(queued.body.queue as string);

      const [EAST, SOUTH, WEST, MOVER, NORTH] = [1, 2, 3, 4, 5].map(epc) as [string, string, string, string, string];
      // In this order: the engine handles input in log order, so once NORTH's
      // records are there, every earlier report has been handled.
      await report('East', [EAST, MOVER]);
      await report('South', [SOUTH]);
      await report('West', [WEST]);
      await sleep(50); // North's read of MOVER is later than East's
      await report('North', [MOVER, NORTH]);
      await eventually('NORTH in the history', () => q.history(), (h) => h.some((r) => r.epc === NORTH));
      await eventually('NORTH in the items', () => q.items(), (m) => m.has(NORTH));

      // Between facilities: one ZONE_CHANGE carrying both.
      const history = await q.history();
      const moves = history.filter((h) => h.epc === MOVER);
      expect(moves.map((h) => [h.fromFacility, h.fromZone, h.toFacility, h.toZone])).to.deep.equal([
        [null, 'ABSENT', 'East', 'East-DOCK'],
        ['East', 'East-DOCK', 'North', 'North-DOCK'],
      ]);
      const items = await q.items();
      expect(items.get(MOVER)).to.include({ facility: 'North', zone: 'North-DOCK', jobId: jobs.get('North')?.jobId });
      expect([...(await q.items('&facility=East')).keys()]).to.deep.equal([EAST]);

      // reportToHistoryEnabled=false: the item, no history record.
      expect(items.get(SOUTH)).to.include({ facility: 'South', zone: 'South-DOCK' });
      expect(await q.historyOf(SOUTH)).to.deep.equal([]);
      // reportToDatabaseEnabled=false: the history record, no item.
      expect(await q.historyOf(WEST)).to.deep.equal([['ABSENT', 'West-DOCK']]);
      expect(items.has(WEST)).to.equal(false);

      // reportToMessageQueueEnabled=false: no message. The relay publishes in
      // ENGINE_STREAM order, so once the North records arrived, East's would have.
      const order = (await readStream(client, ENGINE_STREAM, itemEvents)).events.flatMap((e) => e.data.changes.map((c) => `${c.epc}@${c.toFacility}`));
      expect(order.indexOf(`${EAST}@East`)).to.be.lessThan(order.indexOf(`${NORTH}@North`));
      const messages = await eventually('North messages', async () => queue?.messages.map((m) => m.body as HistoryRecord) ?? [], (m) => m.some((r) => r.epc === NORTH));
      const names = messages.map((m) => `${m.epc}@${m.toFacility}`);
      expect(names).to.include.members([`${SOUTH}@South`, `${WEST}@West`, `${MOVER}@North`, `${NORTH}@North`]);
      expect(names).not.to.include(`${EAST}@East`);
      expect(names).not.to.include(`${MOVER}@East`);
    });
  });
});
