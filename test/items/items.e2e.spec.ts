// GET /data/v1/items/show and /show/history over the items projection: the
// test appends ItemsChanged batches to the engine stream itself (as the
// engine does) and queries every filter, epcFormat, paging, page markers of
// another query, the reportTo... flags, roles and an idempotent replay.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { EventStoreDBClient } from '@eventstore/db-client';
import { createClient } from 'redis';
import { encodeEvent } from '../../src/core/events';
import { ENGINE_STREAM, itemEvents, type ItemChangeCodec } from '../../src/engine/events';
import { createLogger } from '../../src/core/logger';
import { RedisKeys } from '../../src/core/redis/keys';
import type { RedisClient } from '../../src/core/redis/connect';
import { startItemsProjection } from '../../projections/items/projection';
import { ITEMS_PROJECTION, itemKeys } from '../../src/items/keys';
import { decodeStoredItem } from '../../src/items/stored-item';
import { startTestApp, type TestApp } from '../support/app';
import { createUser, errorPaths, expectStatus } from '../readerconfigurations/e2e-support';
import type * as t from 'io-ts';
import { waitForValue } from '../support/wait';

type Change = t.TypeOf<typeof ItemChangeCodec>;
const ITEMS = '/data/v1/items/show';
const HISTORY = '/data/v1/items/show/history';
const T0 = Date.parse('2026-05-01T08:00:00.000Z');
const iso = (s: number): string => new Date(T0 + s * 1000).toISOString();
const JOB_A = randomUUID();
const JOB_B = randomUUID();
const SGTIN = '3074257BF7194E4000001A85'; // urn:epc:id:sgtin:0614141.812345.6789
const UPC = '307400C0E4424C8000000001'; // GTIN-14 00012345678905
const raw = (n: number): string => `E2801160600002${n.toString(16).toUpperCase().padStart(10, '0')}`;

const change = (over: Partial<Change> & Pick<Change, 'epc'>): Change => ({
  kind: 'FIRST_SEEN', tid: null, jobId: JOB_A, fromZone: 'ABSENT', toZone: 'Z1',
  fromFloor: null, toFloor: '1', fromFacility: null, toFacility: 'North', fromX: null, fromY: null, toX: 1, toY: 2,
  observationTime: T0, reportToDatabaseEnabled: true, reportToHistoryEnabled: true, reportToMessageQueueEnabled: true,
  ...over,
});

describe('items and history over HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;
  let client: EventStoreDBClient;
  let redis: RedisClient;

  const append = async (changes: Change[]): Promise<void> => {
    const event = encodeEvent(itemEvents, { type: 'ItemsChanged', data: { inputPosition: '0', at: T0, changes } });
    await client.appendToStream(ENGINE_STREAM, [event]);
  };
  const get = async (path: string, query: Record<string, string> = {}, auth?: string) => {
    const qs = new URLSearchParams(query).toString();
    return app.request('GET', qs ? `${path}?${qs}` : path, auth === undefined ? {} : { auth });
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const until = (path: string, query: Record<string, string>, test: (body: any) => boolean): Promise<any> => {
    const read = async () => {
      const res = await get(path, query);
      expectStatus(res, 200);
      return res.body;
    };
    return waitForValue(`GET ${path}`, read, test, { timeoutMs: 10_000 });
  };
  const epcsOf = (body: { items: Array<{ epc: string }> }): string[] => body.items.map((i) => i.epc);

  before(async () => {
    app = await startTestApp();
    client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    redis = createClient({ url: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379' }) as RedisClient;
    await redis.connect();
    // 1. first sightings in North (Z1, Z2) by job A, in South by job B
    await append([
      change({ epc: SGTIN, tid: 'E2001111', observationTime: T0 }),
      change({ epc: UPC, toZone: 'Z2', toX: 10, toY: 10, observationTime: T0 + 1000 }),
      change({ epc: raw(1), jobId: JOB_B, toFacility: 'South', toZone: 'S1', toFloor: '0', observationTime: T0 + 2000 }),
      change({ epc: raw(2), toZone: 'FACILITY', toX: null, toY: null, toFloor: null, observationTime: T0 + 3000 }),
      // not in the items API, only in history
      change({ epc: raw(3), reportToDatabaseEnabled: false, observationTime: T0 + 4000 }),
      // only in the items API
      change({ epc: raw(4), reportToHistoryEnabled: false, observationTime: T0 + 5000 }),
    ]);
    // 2. SGTIN moves Z1 -> Z2 (history), then within Z2 (MOVED, item only); raw(2) heartbeats; UPC expires
    await append([
      change({ kind: 'ZONE_CHANGE', epc: SGTIN, tid: 'E2001111', fromZone: 'Z1', toZone: 'Z2', fromFloor: '1', fromFacility: 'North', fromX: 1, fromY: 2, toX: 9, toY: 2, observationTime: T0 + 60_000 }),
      change({ kind: 'MOVED', epc: SGTIN, tid: 'E2001111', fromZone: 'Z2', toZone: 'Z2', fromFloor: '1', fromFacility: 'North', fromX: 9, fromY: 2, toX: 9.5, toY: 2, observationTime: T0 + 61_000 }),
      change({ kind: 'HEARTBEAT', epc: raw(2), jobId: JOB_B, fromZone: 'FACILITY', toZone: 'FACILITY', fromFacility: 'North', toX: null, toY: null, toFloor: null, observationTime: T0 + 62_000 }),
      change({ kind: 'EXPIRED', epc: UPC, fromZone: 'Z2', toZone: 'ABSENT', fromFloor: '1', fromFacility: 'North', fromX: 10, fromY: 10, toFloor: null, toX: null, toY: null, observationTime: T0 + 63_000 }),
      // raw(1) goes from South to North
      change({ kind: 'ZONE_CHANGE', epc: raw(1), jobId: JOB_B, fromZone: 'S1', toZone: 'FACILITY', fromFloor: '0', fromFacility: 'South', toFacility: 'North', fromX: 1, fromY: 2, toX: 1, toY: 3, observationTime: T0 + 64_000 }),
    ]);
    await until(HISTORY, {}, (b) => b.history.length === 8);
  });
  after(async () => {
    await redis?.quit();
    await client?.dispose();
    await app?.stop();
  });

  it('lists the current item of every EPC, in EPC order, with the interface fields', async () => {
    const body = await until(ITEMS, {}, (b) => b.items.find((i: { epc: string }) => i.epc === UPC)?.zone === 'ABSENT');
    expect(epcsOf(body)).to.deep.equal([SGTIN, UPC, raw(1), raw(2), raw(4)].sort());
    expect(body.nextPageMarker).to.equal(null);
    expect(body.items.find((i: { epc: string }) => i.epc === SGTIN)).to.deep.equal({
      epc: SGTIN, tagId: 'E2001111', jobId: JOB_A, xLocation: 9.5, yLocation: 2, zLocation: 0, zone: 'Z2', floor: '1',
      facility: 'North', presenceConfidence: 'HIGH', lastModifiedTime: iso(61),
    });
    // an expired item stays listed in zone ABSENT, facility kept
    expect(body.items.find((i: { epc: string }) => i.epc === UPC)).to.include({ zone: 'ABSENT', facility: 'North', xLocation: null, floor: null, lastModifiedTime: iso(63) });
    // a heartbeat by another job moves the item to that job
    expect(body.items.find((i: { epc: string }) => i.epc === raw(2))).to.include({ jobId: JOB_B, lastModifiedTime: iso(62) });
  });

  it('filters items by epcPrefix, jobId, zoneNames, facility and time; presenceConfidence is ignored', async () => {
    const q = async (query: Record<string, string>) => {
      const res = await get(ITEMS, query);
      expectStatus(res, 200);
      return epcsOf(res.body);
    };
    expect(await q({ epcPrefix: '3074' })).to.deep.equal([SGTIN, UPC].sort());
    expect(await q({ epcPrefix: '3074257bf' })).to.deep.equal([SGTIN]);
    expect(await q({ epcPrefix: 'E28011606' })).to.deep.equal([raw(1), raw(2), raw(4)]);
    expect(await q({ jobId: JOB_B })).to.deep.equal([raw(1), raw(2)]);
    expect(await q({ zoneNames: 'Z2' })).to.deep.equal([SGTIN]);
    expect(await q({ zoneNames: 'ABSENT,Z2' })).to.deep.equal([SGTIN, UPC].sort());
    expect(await q({ zoneNames: 'FACILITY', facility: 'North' })).to.deep.equal([raw(1), raw(2)]);
    expect(await q({ facility: 'South' })).to.deep.equal([]);
    expect(await q({ facility: 'North', jobId: JOB_A, epcPrefix: 'E2' })).to.deep.equal([raw(4)]);
    expect(await q({ fromTime: iso(62) })).to.deep.equal([UPC, raw(1), raw(2)].sort());
    expect(await q({ fromTime: iso(62), toTime: iso(63) })).to.deep.equal([raw(2)]);
    expect(await q({ toTime: iso(60) })).to.deep.equal([raw(4)]);
    expect(await q({ presenceConfidence: 'LOW' })).to.have.length(5);
  });

  it('shows EPCs in every epcFormat, leaving out what does not decode', async () => {
    const q = async (epcFormat: string) => epcsOf((await get(ITEMS, { epcFormat, epcPrefix: '3074' })).body);
    expect(await q('RAW')).to.deep.equal([SGTIN, UPC].sort());
    expect(await q('PURE_ID')).to.deep.equal(['urn:epc:id:sgtin:0012345.067890.1', 'urn:epc:id:sgtin:0614141.812345.6789']);
    expect(await q('TAG')).to.deep.equal(['urn:epc:tag:sgtin-96:3.0012345.067890.1', 'urn:epc:tag:sgtin-96:3.0614141.812345.6789']);
    expect(await q('UPC12')).to.deep.equal(['012345678905']);
    expect(epcsOf((await get(ITEMS, { epcFormat: 'PURE_ID', epcPrefix: 'E2' })).body)).to.deep.equal([]);
    expect(epcsOf((await get(ITEMS, { epcFormat: 'DEFAULT' })).body)).to.deep.equal([
      'urn:epc:id:sgtin:0012345.067890.1', 'urn:epc:id:sgtin:0614141.812345.6789', raw(1), raw(2), raw(4),
    ]);
  });

  it('answers the history with every filter, oldest first; reportToHistoryEnabled false stays out', async () => {
    const q = async (query: Record<string, string>) => {
      const res = await get(HISTORY, query);
      expectStatus(res, 200);
      return res.body as { history: Array<Record<string, unknown>>; nextPageMarker: string | null; moreHistoryAvailable: boolean };
    };
    const all = await q({});
    expect(all.moreHistoryAvailable).to.equal(false);
    expect(all.nextPageMarker).to.equal(null);
    expect(all.history.map((h) => [h['epc'], h['toZone']])).to.deep.equal([
      [SGTIN, 'Z1'], [UPC, 'Z2'], [raw(1), 'S1'], [raw(2), 'FACILITY'], [raw(3), 'Z1'], [SGTIN, 'Z2'], [UPC, 'ABSENT'], [raw(1), 'FACILITY'],
    ]);
    expect(all.history[5]).to.deep.equal({
      epc: SGTIN, tagId: 'E2001111', fromZone: 'Z1', toZone: 'Z2', fromFloor: '1', toFloor: '1', fromFacility: 'North', toFacility: 'North',
      fromX: 1, toX: 9, fromY: 2, toY: 2, observationTime: iso(60),
    });
    const epcs = async (query: Record<string, string>) => (await q(query)).history.map((h) => `${String(h['epc'])}>${String(h['toZone'])}`);
    expect(await epcs({ epcPrefix: '3074257B' })).to.deep.equal([`${SGTIN}>Z1`, `${SGTIN}>Z2`]);
    expect(await epcs({ jobId: JOB_B })).to.deep.equal([`${raw(1)}>S1`, `${raw(1)}>FACILITY`]);
    expect(await epcs({ fromZone: 'Z2' })).to.deep.equal([`${UPC}>ABSENT`]);
    expect(await epcs({ toZone: 'Z1' })).to.deep.equal([`${SGTIN}>Z1`, `${raw(3)}>Z1`]);
    expect(await epcs({ fromFacility: 'South' })).to.deep.equal([`${raw(1)}>FACILITY`]);
    expect(await epcs({ toFacility: 'South' })).to.deep.equal([`${raw(1)}>S1`]);
    expect(await epcs({ fromTime: iso(3), toTime: iso(63) })).to.deep.equal([`${raw(2)}>FACILITY`, `${raw(3)}>Z1`, `${SGTIN}>Z2`]);
    expect(await epcs({ minDistanceMoved: '5' })).to.deep.equal([`${SGTIN}>Z2`]);
    expect(await epcs({ minDistanceMoved: '0.5' })).to.deep.equal([`${SGTIN}>Z2`, `${raw(1)}>FACILITY`]);
    // false adds the move inside Z2 (MOVED), in its place in time.
    expect(await epcs({ zoneTransitionsOnly: 'false' })).to.deep.equal([
      `${SGTIN}>Z1`, `${UPC}>Z2`, `${raw(1)}>S1`, `${raw(2)}>FACILITY`, `${raw(3)}>Z1`, `${SGTIN}>Z2`, `${SGTIN}>Z2`, `${UPC}>ABSENT`, `${raw(1)}>FACILITY`,
    ]);
    expect((await q({ zoneTransitionsOnly: 'false', epcPrefix: '3074257B' })).history[2]).to.include({ fromZone: 'Z2', toZone: 'Z2', fromX: 9, toX: 9.5 });
    expect(await epcs({ zoneTransitionsOnly: 'true' })).to.deep.equal(await epcs({}));
    // An exit goes to no facility: toFacility leaves it out, fromFacility has it.
    expect((await q({ fromZone: 'Z2' })).history[0]).to.include({ fromFacility: 'North', toFacility: null });
    expect(await epcs({ toFacility: 'North' })).to.not.include(`${UPC}>ABSENT`);
    expect(await epcs({ fromFacility: 'North' })).to.include(`${UPC}>ABSENT`);
    expect((await q({ epcFormat: 'UPC12' })).history.map((h) => h['epc'])).to.deep.equal(['012345678905', '012345678905']);
    expect((await q({ epcFormat: 'DEFAULT', epcPrefix: 'E2' })).history.map((h) => h['epc'])).to.deep.equal([raw(1), raw(2), raw(3), raw(1)]);
  });

  it('respects reportToDatabaseEnabled and reportToHistoryEnabled', async () => {
    expect(epcsOf((await get(ITEMS, { epcPrefix: raw(3) })).body)).to.deep.equal([]);
    expect((await get(HISTORY, { epcPrefix: raw(3) })).body.history).to.have.length(1);
    expect(epcsOf((await get(ITEMS, { epcPrefix: raw(4) })).body)).to.deep.equal([raw(4)]);
    expect((await get(HISTORY, { epcPrefix: raw(4) })).body.history).to.have.length(0);
  });

  it('pages items and history without duplicates or gaps, and refuses a marker with other parameters', async () => {
    const many = Array.from({ length: 250 }, (_, i) => change({ epc: raw(1000 + i), toZone: 'PAGED', observationTime: T0 + 100_000 + (i % 7) }));
    await append(many.slice(0, 120));
    await append(many.slice(120));
    const expected = many.map((c) => c.epc).sort();
    await until(ITEMS, { zoneNames: 'PAGED', pageSize: '1000' }, (b) => b.items.length === 250);
    const seen: string[] = [];
    let marker: string | null = null;
    let pages = 0;
    do {
      const query: Record<string, string> = { zoneNames: 'PAGED', pageSize: pages === 0 ? '100' : '70' };
      if (marker) query['pageMarker'] = marker;
      const res = await get(ITEMS, query);
      expectStatus(res, 200);
      seen.push(...epcsOf(res.body));
      marker = res.body.nextPageMarker as string | null;
      pages += 1;
    } while (marker);
    expect(seen).to.deep.equal(expected);
    expect(pages).to.equal(4); // 100 + 70 + 70 + 10

    const first = await get(ITEMS, { zoneNames: 'PAGED', pageSize: '10' });
    const other = await get(ITEMS, { zoneNames: 'PAGED,Z1', pageSize: '10', pageMarker: first.body.nextPageMarker as string });
    expectStatus(other, 400);
    expect(errorPaths(other)).to.deep.equal(['query.pageMarker']);
    const forged = await get(ITEMS, { zoneNames: 'PAGED', pageMarker: 'abc.def' });
    expect(errorPaths(forged)).to.deep.equal(['query.pageMarker']);

    // history: ties of observation time keep a stable order across pages
    const hist: string[] = [];
    let hm: string | null = null;
    let more = true;
    while (more) {
      const query: Record<string, string> = { toZone: 'PAGED', pageSize: '33' };
      if (hm) query['pageMarker'] = hm;
      const res = await get(HISTORY, query);
      expectStatus(res, 200);
      hist.push(...(res.body.history as Array<{ epc: string }>).map((h) => h.epc));
      more = res.body.moreHistoryAvailable as boolean;
      hm = res.body.nextPageMarker as string | null;
      expect(hm === null).to.equal(!more);
    }
    expect([...hist].sort()).to.deep.equal(expected);
    expect(new Set(hist).size).to.equal(250);
    const hOther = await get(HISTORY, { toZone: 'Z1', pageMarker: (await get(HISTORY, { toZone: 'PAGED', pageSize: '5' })).body.nextPageMarker as string });
    expect(errorPaths(hOther)).to.deep.equal(['query.pageMarker']);
    // a history marker is not an items marker
    const cross = await get(ITEMS, { pageMarker: (await get(HISTORY, { pageSize: '1' })).body.nextPageMarker as string });
    expect(errorPaths(cross)).to.deep.equal(['query.pageMarker']);

    // alwaysIncludePageMarker: a marker on the last page picks up later records
    const tail = await get(HISTORY, { toZone: 'LATER', alwaysIncludePageMarker: 'true' });
    expect(tail.body).to.include({ moreHistoryAvailable: false });
    expect(tail.body.nextPageMarker).to.be.a('string');
    await append([change({ epc: raw(9), toZone: 'LATER', observationTime: T0 + 200_000 })]);
    await until(HISTORY, { toZone: 'LATER' }, (b) => b.history.length === 1);
    const next = await get(HISTORY, { toZone: 'LATER', alwaysIncludePageMarker: 'true', pageMarker: tail.body.nextPageMarker as string });
    expect((next.body.history as Array<{ epc: string }>).map((h) => h.epc)).to.deep.equal([raw(9)]);
  });

  it('answers bad parameters with 400 naming query.<name>', async () => {
    const bad = async (path: string, query: Record<string, string>) => {
      const res = await get(path, query);
      expectStatus(res, 400);
      return errorPaths(res);
    };
    expect(await bad(ITEMS, { pageSize: '0' })).to.deep.equal(['query.pageSize']);
    expect(await bad(ITEMS, { pageSize: '1001' })).to.deep.equal(['query.pageSize']);
    expect(await bad(ITEMS, { epcFormat: 'SGTIN' })).to.deep.equal(['query.epcFormat']);
    expect(await bad(ITEMS, { epcPrefix: 'xyz' })).to.deep.equal(['query.epcPrefix']);
    expect(await bad(ITEMS, { fromTime: 'yesterday' })).to.deep.equal(['query.fromTime']);
    expect(await bad(ITEMS, { fromTime: iso(10), toTime: iso(5) })).to.deep.equal(['query.toTime']);
    expect(await bad(ITEMS, { presenceConfidence: 'MEDIUM' })).to.deep.equal(['query.presenceConfidence']);
    expect(await bad(ITEMS, { zoneNames: ',' })).to.deep.equal(['query.zoneNames']);
    expect(await bad(ITEMS, { zoneName: 'Z1' })).to.deep.equal(['query.zoneName']);
    expect(await bad(HISTORY, { zoneTransitionsOnly: 'yes' })).to.deep.equal(['query.zoneTransitionsOnly']);
    expect(await bad(HISTORY, { minDistanceMoved: '-1' })).to.deep.equal(['query.minDistanceMoved']);
    expect((await bad(HISTORY, { alwaysIncludePageMarker: '1', pageSize: 'x' })).sort()).to.deep.equal(['query.alwaysIncludePageMarker', 'query.pageSize']);
    expect(await bad(HISTORY, { zoneNames: 'Z1' })).to.deep.equal(['query.zoneNames']);
  });

  it('is allowed to DataReader and refused to JobRunner', async () => {
    const reader = await createUser(app, 'items-reader', ['DataReader']);
    const runner = await createUser(app, 'items-runner', ['JobRunner']);
    expect((await get(ITEMS, {}, reader)).status).to.equal(200);
    expect((await get(HISTORY, {}, reader)).status).to.equal(200);
    expect((await get(ITEMS, {}, runner)).status).to.equal(403);
    expect((await get(HISTORY, {}, runner)).status).to.equal(403);
  });

  it('changes nothing when the same events are replayed (checkpoint reset)', async () => {
    // A second projection under its own key prefix over the same log: build,
    // snapshot, drop its checkpoint, replay everything, snapshot again.
    const keys = new RedisKeys(`${app.keyPrefix}replay:`);
    const logger = createLogger('replay');
    const snapshot = async (): Promise<Record<string, unknown>> => {
      const out: Record<string, unknown> = {};
      const found: string[] = [];
      for await (const batch of redis.scanIterator({ MATCH: itemKeys(keys).pattern, COUNT: 500 })) found.push(...batch);
      for (const key of found.sort()) {
        const type = await redis.type(key);
        out[key] = type === 'hash' ? await redis.hGetAll(key) : await redis.zRangeWithScores(key, 0, -1);
      }
      return out;
    };
    const run = async (): Promise<void> => {
      const sub = startItemsProjection({ client, redis, keys, logger });
      await sub.caughtUp;
      await sub.stop();
    };
    await run();
    const once = await snapshot();
    expect(Object.keys(once).length).to.be.greaterThan(5);
    await redis.del(`${keys.checkpointPrefix}${ITEMS_PROJECTION}`);
    await run();
    expect(await snapshot()).to.deep.equal(once);
    // and it equals the live read model
    const live = (await get(ITEMS, { pageSize: '1000' })).body;
    const replayedItems = Object.entries(once[itemKeys(keys).item] as Record<string, string>).map(([epc, s]) => decodeStoredItem(epc, s).item);
    expect([...replayedItems].sort((a, b) => (a.epc < b.epc ? -1 : 1))).to.deep.equal(live.items);
    for await (const batch of redis.scanIterator({ MATCH: `${app.keyPrefix}replay:*`, COUNT: 500 })) if (batch.length) await redis.del(batch);
  });
});
