// GET /data/v1/items/show/asOf: the test appends ItemsChanged batches with
// known engine times (`at`) and observation times to the engine stream, as
// the engine does, and asks for the items of a facility at times before,
// between and after them: a batch straddling the time, an expiry, an item
// moving to another facility, a change appended past the lateness horizon,
// epcFormat, paging, bad parameters and roles.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { EventStoreDBClient } from '@eventstore/db-client';
import type * as t from 'io-ts';
import { encodeEvent } from '../../src/core/events';
import { ENGINE_STREAM, itemEvents, type ItemChangeCodec } from '../../src/engine/events';
import { AS_OF_LATENESS_MS, AsOfFold, scanEngineStream } from '../../src/items/asof';
import { startTestApp, type TestApp } from '../support/app';
import { createUser, errorPaths, expectStatus } from '../readerconfigurations/e2e-support';
import { sleep } from '../support/wait';

type Change = t.TypeOf<typeof ItemChangeCodec>;
const AS_OF = '/data/v1/items/show/asOf';
const ITEMS = '/data/v1/items/show';
const T0 = Date.parse('2026-05-01T08:00:00.000Z');
const ms = (s: number): number => T0 + s * 1000;
const iso = (s: number): string => new Date(ms(s)).toISOString();
const JOB = randomUUID();
const SGTIN = '3074257BF7194E4000001A85'; // urn:epc:id:sgtin:0614141.812345.6789
const UPC = '307400C0E4424C8000000001'; // urn:epc:id:sgtin:0012345.067890.1
const raw = (n: number): string => `E2801160600002${n.toString(16).toUpperCase().padStart(10, '0')}`;
const SOUTH_ITEM = raw(100);
const HIDDEN = raw(101); // reportToDatabaseEnabled false
const LATE = raw(102); // observed at 100 s, appended past the horizon
const PAGED = [1, 2, 3, 4, 5].map(raw);

const change = (over: Partial<Change> & Pick<Change, 'epc'>): Change => ({
  kind: 'FIRST_SEEN', tid: null, jobId: JOB, fromZone: 'ABSENT', toZone: 'Z1',
  fromFloor: null, toFloor: '1', fromFacility: null, toFacility: 'North', fromX: null, fromY: null, toX: 1, toY: 2,
  observationTime: T0, reportToDatabaseEnabled: true, reportToHistoryEnabled: true, reportToMessageQueueEnabled: true,
  ...over,
});
const move = (epc: string, from: string, to: string, s: number, over: Partial<Change> = {}): Change =>
  change({ kind: 'ZONE_CHANGE', epc, fromZone: from, toZone: to, fromFloor: '1', fromFacility: 'North', fromX: 1, fromY: 2, observationTime: ms(s), ...over });

interface Body { asOf: string; items: Array<{ epc: string; zone: string; facility: string | null; lastModifiedTime: string }>; nextPageMarker: string | null }

describe('items as of a past time over HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;
  let client: EventStoreDBClient;

  const append = async (atSeconds: number, changes: Change[]): Promise<void> => {
    const event = encodeEvent(itemEvents, { type: 'ItemsChanged', data: { inputPosition: '0', at: ms(atSeconds), changes } });
    await client.appendToStream(ENGINE_STREAM, [event]);
  };
  const get = async (path: string, query: Record<string, string>, auth?: string) =>
    app.request('GET', `${path}?${new URLSearchParams(query).toString()}`, auth === undefined ? {} : { auth });
  const asOf = async (query: Record<string, string>): Promise<Body> => {
    const res = await get(AS_OF, query);
    expectStatus(res, 200);
    return res.body as Body;
  };
  const epcsAt = async (s: number, query: Record<string, string> = {}): Promise<string[]> =>
    (await asOf({ facility: 'North', time: iso(s), ...query })).items.map((i) => i.epc);
  const zoneAt = async (s: number, epc: string): Promise<string | undefined> =>
    (await asOf({ facility: 'North', time: iso(s) })).items.find((i) => i.epc === epc)?.zone;

  before(async () => {
    app = await startTestApp();
    client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    // 1 s: first sightings in North, one in South, one not reported to the database
    await append(1, [
      change({ epc: SGTIN, observationTime: ms(0) }),
      change({ epc: UPC, toZone: 'Z2', observationTime: ms(0.5) }),
      change({ epc: SOUTH_ITEM, toFacility: 'South', toZone: 'S1', observationTime: ms(0) }),
      change({ epc: HIDDEN, reportToDatabaseEnabled: false, observationTime: ms(0) }),
      ...PAGED.map((epc) => change({ epc, toZone: 'Z5', observationTime: ms(0.8) })),
    ]);
    // 61 s: straddles 60 s: SGTIN Z1 -> Z2 observed at 59 s, UPC Z2 -> Z3 at 61 s
    await append(61, [move(SGTIN, 'Z1', 'Z2', 59), move(UPC, 'Z2', 'Z3', 61)]);
    // 120 s: UPC expired at 110 s; the South item moved to North at 115 s; SGTIN Z2 -> Z4 at 120 s
    await append(120, [
      change({ kind: 'EXPIRED', epc: UPC, fromZone: 'Z3', toZone: 'ABSENT', fromFloor: '1', fromFacility: 'North', toFloor: null, toX: null, toY: null, observationTime: ms(110) }),
      move(SOUTH_ITEM, 'S1', 'FACILITY', 115, { fromFacility: 'South', toFloor: null, toX: null, toY: null }),
      move(SGTIN, 'Z2', 'Z4', 120),
    ]);
    // past the lateness horizon of 100 s: a change observed at 100 s (engine catching up)
    await append(100 + AS_OF_LATENESS_MS / 1000 + 30, [change({ epc: LATE, observationTime: ms(100) })]);
  });
  after(async () => {
    await client?.dispose();
    await app?.stop();
  });

  it('lists nothing before the first change', async () => {
    const body = await asOf({ facility: 'North', time: iso(-1) });
    expect(body).to.deep.equal({ asOf: iso(-1), items: [], nextPageMarker: null });
  });

  it('shows the items of the facility at the time, in EPC order, with the interface fields', async () => {
    const body = await asOf({ facility: 'North', time: iso(30) });
    expect(body.asOf).to.equal(iso(30));
    expect(body.items.map((i) => i.epc)).to.deep.equal([SGTIN, UPC, ...PAGED].sort());
    expect(body.items.find((i) => i.epc === SGTIN)).to.deep.equal({
      epc: SGTIN, tagId: '', jobId: JOB, xLocation: 1, yLocation: 2, zLocation: 0, zone: 'Z1', floor: '1',
      facility: 'North', presenceConfidence: 'HIGH', lastModifiedTime: iso(0),
    });
  });

  it('gives the zone at the time between two moves, also inside a batch straddling the time', async () => {
    expect(await zoneAt(58, SGTIN)).to.equal('Z1');
    expect(await zoneAt(59, SGTIN)).to.equal('Z2'); // observationTime <= time is included
    expect(await zoneAt(60, SGTIN)).to.equal('Z2');
    expect(await zoneAt(60, UPC)).to.equal('Z2'); // its move in the same batch is after 60 s
    expect(await zoneAt(61, UPC)).to.equal('Z3');
    expect(await zoneAt(119, SGTIN)).to.equal('Z2');
    expect(await zoneAt(120, SGTIN)).to.equal('Z4');
  });

  it('shows an expired item in zone ABSENT after its expiry', async () => {
    expect(await zoneAt(109, UPC)).to.equal('Z3');
    const body = await asOf({ facility: 'North', time: iso(110) });
    expect(body.items.find((i) => i.epc === UPC)).to.include({ zone: 'ABSENT', facility: 'North', lastModifiedTime: iso(110) });
    expect(await epcsAt(110, { zoneNames: 'ABSENT' })).to.deep.equal([UPC]);
  });

  it('leaves out the items of other facilities and follows items between facilities', async () => {
    expect(await epcsAt(30)).to.not.include(SOUTH_ITEM);
    expect((await asOf({ facility: 'South', time: iso(30) })).items.map((i) => i.epc)).to.deep.equal([SOUTH_ITEM]);
    expect((await asOf({ facility: 'South', time: iso(115) })).items).to.deep.equal([]);
    expect(await zoneAt(115, SOUTH_ITEM)).to.equal('FACILITY');
    expect((await asOf({ facility: 'Nowhere', time: iso(200) })).items).to.deep.equal([]);
  });

  it('leaves out changes not reported to the database', async () => {
    expect(await epcsAt(1000)).to.not.include(HIDDEN);
  });

  it('stops reading past the lateness horizon; a future time answers as of now and sees everything', async () => {
    expect(await epcsAt(100)).to.not.include(LATE); // appended more than the horizon after 100 s
    const before = Date.now();
    const body = await asOf({ facility: 'North', time: '2999-01-01T00:00:00Z' });
    const answered = Date.parse(body.asOf);
    expect(answered).to.be.within(before, Date.now());
    expect(body.items.map((i) => i.epc)).to.include(LATE);
  });

  it('reads the stream in chunks and stops at the first event past the horizon', async () => {
    const whole = new AsOfFold(ms(10_000), undefined);
    expect(await scanEngineStream(client, whole, 2)).to.deep.equal({ events: 4, changes: 14, stoppedEarly: false });
    const early = new AsOfFold(ms(60), '3074');
    // events at 1 s and 61 s are read; 120 s is within the horizon too; the late one is past it
    expect(await scanEngineStream(client, early, 1)).to.deep.equal({ events: 3, changes: 3, stoppedEarly: true });
    expect(early.itemsOf('North', undefined).map((i) => [i.epc, i.zone])).to.deep.equal([[UPC, 'Z2'], [SGTIN, 'Z2']].sort());
  });

  it('as of now equals the items read model of the facility', async () => {
    const now = await asOf({ facility: 'North', time: '2999-01-01T00:00:00Z', pageSize: '1000' });
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await get(ITEMS, { facility: 'North', pageSize: '1000' });
      expectStatus(res, 200);
      if (JSON.stringify(res.body.items) === JSON.stringify(now.items)) break;
      if (Date.now() > deadline) expect(res.body.items).to.deep.equal(now.items);
      await sleep(50);
    }
  });

  it('filters by epcPrefix and zoneNames and applies epcFormat', async () => {
    expect(await epcsAt(30, { epcPrefix: '3074' })).to.deep.equal([SGTIN, UPC].sort());
    expect(await epcsAt(30, { epcPrefix: '3074257bf' })).to.deep.equal([SGTIN]);
    expect(await epcsAt(30, { zoneNames: 'Z2, Z1' })).to.deep.equal([SGTIN, UPC].sort());
    expect(await epcsAt(30, { epcFormat: 'PURE_ID', epcPrefix: '3074' })).to.deep.equal([
      'urn:epc:id:sgtin:0012345.067890.1', 'urn:epc:id:sgtin:0614141.812345.6789',
    ]);
    expect(await epcsAt(30, { epcFormat: 'UPC12' })).to.deep.equal(['012345678905']);
    expect(await epcsAt(30, { epcFormat: 'PURE_ID', zoneNames: 'Z5' })).to.deep.equal([]);
    expect(await epcsAt(30, { epcFormat: 'DEFAULT', zoneNames: 'Z1,Z5' })).to.deep.equal(['urn:epc:id:sgtin:0614141.812345.6789', ...PAGED]);
  });

  it('pages with markers bound to the query', async () => {
    const seen: string[] = [];
    const base = { facility: 'North', time: iso(30), zoneNames: 'Z5' };
    let marker: string | null = null;
    let pages = 0;
    do {
      const body: Body = await asOf({ ...base, pageSize: pages === 0 ? '2' : '1', ...(marker === null ? {} : { pageMarker: marker }) });
      expect(body.asOf).to.equal(iso(30));
      seen.push(...body.items.map((i) => i.epc));
      marker = body.nextPageMarker;
      pages += 1;
    } while (marker !== null && pages < 10);
    expect(seen).to.deep.equal(PAGED);
    expect(pages).to.equal(4); // 2, 1, 1, 1

    const first = await asOf({ ...base, pageSize: '2' });
    const other = await get(AS_OF, { ...base, time: iso(31), pageMarker: first.nextPageMarker ?? '' });
    expectStatus(other, 400);
    expect(errorPaths(other)).to.deep.equal(['query.pageMarker']);
    const items = await get(ITEMS, { pageMarker: first.nextPageMarker ?? '' });
    expect(errorPaths(items)).to.deep.equal(['query.pageMarker']);
  });

  it('keeps the time of the first page on later pages when the time is in the future', async () => {
    const base = { facility: 'North', time: '2999-01-01T00:00:00Z', zoneNames: 'Z5' };
    const first = await asOf({ ...base, pageSize: '2' });
    await sleep(20);
    const second = await asOf({ ...base, pageSize: '2', pageMarker: first.nextPageMarker ?? '' });
    expect(second.asOf).to.equal(first.asOf);
    expect(second.items.map((i) => i.epc)).to.deep.equal(PAGED.slice(2, 4));
  });

  it('refuses missing or bad parameters with 400 naming them', async () => {
    const bad = async (query: Record<string, string>): Promise<string[]> => {
      const res = await get(AS_OF, query);
      expectStatus(res, 400);
      return errorPaths(res).sort();
    };
    expect(await bad({ time: iso(1) })).to.deep.equal(['query.facility']);
    expect(await bad({ facility: 'North' })).to.deep.equal(['query.time']);
    expect(await bad({})).to.deep.equal(['query.facility', 'query.time']);
    expect(await bad({ facility: 'North', time: 'yesterday' })).to.deep.equal(['query.time']);
    expect(await bad({ facility: '', time: '' })).to.deep.equal(['query.facility', 'query.time']);
    expect(await bad({ facility: 'North', time: iso(1), jobId: JOB })).to.deep.equal(['query.jobId']);
    expect(await bad({ facility: 'North', time: iso(1), epcPrefix: 'xyz', epcFormat: 'HEX', pageSize: '0', zoneNames: ',' }))
      .to.deep.equal(['query.epcFormat', 'query.epcPrefix', 'query.pageSize', 'query.zoneNames']);
    expect(await bad({ facility: 'North', time: iso(1), pageMarker: 'forged.marker' })).to.deep.equal(['query.pageMarker']);
  });

  it('is allowed to DataReader and Admin and refused to JobRunner', async () => {
    const reader = await createUser(app, 'asof-reader', ['DataReader']);
    const runner = await createUser(app, 'asof-runner', ['JobRunner']);
    const q = { facility: 'North', time: iso(30) };
    expect((await get(AS_OF, q, reader)).status).to.equal(200);
    expect((await get(AS_OF, q)).status).to.equal(200); // admin
    expect((await get(AS_OF, q, runner)).status).to.equal(403);
  });
});
