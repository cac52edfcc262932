// GET /epcis/v2/events through HTTP after a simulated run: every history
// record (moves included) is one ObjectEvent, the documents pass GS1's
// EPCIS 2.0 schema, paging through the Link header is stable, each filter
// narrows as the standard says, configured identifiers replace the
// defaults, bad parameters are problem+json naming the parameter, and only
// DataReader (and Admin) may ask. A threshold transition appended as the
// engine writes it shows as arriving through the door.
import { expect } from 'chai';
import { EventStoreDBClient } from '@eventstore/db-client';
import { encodeEvent } from '../../src/core/events';
import { ENGINE_STREAM, itemEvents } from '../../src/engine/events';
import { silent } from '../support/logger';
import { parseOptions } from '../../src/simulator/options';
import { runSimulation } from '../../src/simulator/run';
import { epcUriOf } from '../../src/epcis/epc-uri';
import { startTestApp, type TestApp } from '../support/app';
import { createUser, expectStatus } from '../readerconfigurations/e2e-support';
import { expectValidEpcis } from './validate';
import { waitFor } from '../support/wait';

const EVENTS = '/epcis/v2/events';
const BASE = 'https://tagtrail.example/epcis/';
const SGTIN_A = '3074257BF7194E4000001A85'; // urn:epc:id:sgtin:0614141.812345.6789
const SGTIN_B = '3074257BF7194E4000001A86'; // urn:epc:id:sgtin:0614141.812345.6790
const OTHER_CLASS = '307400C0E4424C8000000001'; // another company prefix

interface Ev {
  eventID: string;
  eventTime: string;
  epcList: string[];
  bizStep?: string;
  readPoint: { id: string };
  bizLocation?: { id: string };
}
interface HistoryRecord { epc: string; fromZone: string; toZone: string; fromFacility: string | null; toFacility: string | null; observationTime: string }

describe('EPCIS query interface over a simulated run', function () {
  this.timeout(120_000);
  let app: TestApp;
  let history: HistoryRecord[];
  let all: Ev[];

  const query = async (params: Record<string, string>, headers: Record<string, string> = {}) => {
    const qs = new URLSearchParams(params).toString();
    return app.request('GET', qs ? `${EVENTS}?${qs}` : EVENTS, { headers });
  };
  const eventsOf = (body: { epcisBody: { queryResults: { resultsBody: { eventList: Ev[] } } } }): Ev[] => body.epcisBody.queryResults.resultsBody.eventList;
  /** Every page of a query, following the Link header. */
  const walk = async (params: Record<string, string>): Promise<{ events: Ev[]; pages: number }> => {
    const out: Ev[] = [];
    let path: string | undefined = `${EVENTS}?${new URLSearchParams(params).toString()}`;
    let pages = 0;
    while (path !== undefined) {
      const res = await app.request('GET', path);
      expectStatus(res, 200);
      expectValidEpcis(res.body);
      out.push(...eventsOf(res.body));
      pages += 1;
      const link = res.headers.get('link');
      path = link === null ? undefined : /^<([^>]+)>; rel="next"$/.exec(link)![1]!.replace(/^\/itemsense/, '');
    }
    return { events: out, pages };
  };

  before(async () => {
    app = await startTestApp();
    // Tags of known GS1 classes beside the simulator's (which are not SGTINs): two of one product class, one of another company.
    const client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    const at = Date.parse('2030-01-01T00:00:00.000Z');
    const first = (epc: string, i: number) => ({
      kind: 'FIRST_SEEN' as const, epc, tid: null, jobId: 'j', fromZone: 'ABSENT', toZone: 'Dock', fromFloor: null, toFloor: null, fromFacility: null, toFacility: 'DEFAULT',
      fromX: null, fromY: null, toX: null, toY: null, observationTime: at + i, reportToDatabaseEnabled: true, reportToHistoryEnabled: true, reportToMessageQueueEnabled: false,
    });
    const changes = [SGTIN_A, SGTIN_B, OTHER_CLASS].map(first);
    await client.appendToStream(ENGINE_STREAM, [encodeEvent(itemEvents, { type: 'ItemsChanged', data: { inputPosition: '0', at, changes } })]);
    await client.dispose();
    const options = parseOptions(['--url', app.baseUrl, '--demo', '--start-job', '--readers', '2', '--families', 'SPEEDWAY,XPORTAL', '--tags', '12', '--seed', '7', '--duration', '6', '--checkin-seconds', '1', '--progress', 'none']);
    const summary = await runSimulation(options, { log: silent });
    expect(summary.totals.observations).to.be.greaterThan(0);
    // The history read model and the EPCIS one follow the same log: wait until both hold the run.
    history = await waitFor('the run in the history', async () => {
      const res = await app.request('GET', '/data/v1/items/show/history?pageSize=1000&zoneTransitionsOnly=false');
      return res.body.history.length > 0 ? (res.body.history as HistoryRecord[]) : undefined;
    }, { timeoutMs: 20_000, intervalMs: 250 });
    all = await waitFor('one EPCIS event per history record', async () => {
      const { events } = await walk({ perPage: '1000' });
      return events.length === history.length ? events : undefined;
    }, { timeoutMs: 20_000, intervalMs: 250 });
  });
  after(async () => app?.stop());

  it('every history record is one ObjectEvent: same EPC, time, zone and direction, in time order', () => {
    expect(all.length).to.be.greaterThan(0);
    const key = (epc: string, time: string) => `${epc}@${time}`;
    const byKey = new Map<string, Ev[]>();
    for (const e of all) byKey.set(key(e.epcList[0]!, e.eventTime), [...(byKey.get(key(e.epcList[0]!, e.eventTime)) ?? []), e]);
    const zoneUrl = (f: string | null, z: string) => `${BASE}facilities/${encodeURIComponent(f!)}/zones/${encodeURIComponent(z)}`;
    for (const r of history) {
      const exit = r.toZone === 'ABSENT';
      const readPoint = exit ? zoneUrl(r.fromFacility, r.fromZone) : zoneUrl(r.toFacility, r.toZone);
      const candidates = byKey.get(key(epcUriOf(r.epc), r.observationTime)) ?? [];
      const i = candidates.findIndex((e) => e.readPoint.id === readPoint);
      expect(i, `${r.epc} at ${r.observationTime} in ${readPoint}: ${JSON.stringify(candidates)}`).to.be.at.least(0);
      const [e] = candidates.splice(i, 1);
      if (exit) {
        expect(e!.bizStep).to.equal('departing');
        expect(e!.bizLocation).to.equal(undefined);
      } else {
        if (r.fromZone !== r.toZone) expect(e!.bizStep).to.equal('arriving');
        expect(e!.bizLocation?.id).to.equal(`${BASE}facilities/${encodeURIComponent(r.toFacility!)}`);
      }
    }
    const times = all.map((e) => e.eventTime);
    expect(times).to.deep.equal([...times].sort());
    expect(new Set(all.map((e) => e.eventID)).size).to.equal(all.length);
  });

  it('pages through the Link header are the one-page answer, none repeated or skipped, and the same ids again', async () => {
    const { events, pages } = await walk({ perPage: '3' });
    expect(pages).to.equal(Math.ceil(all.length / 3));
    expect(events.map((e) => e.eventID)).to.deep.equal(all.map((e) => e.eventID));
    const res = await query({});
    expect(eventsOf(res.body).length).to.equal(Math.min(30, all.length));
    expect(res.headers.get('content-type')).to.match(/^application\/ld\+json/);
    expect(res.headers.get('gs1-epcis-version')).to.equal('2.0.0');
    const plain = await query({}, { Accept: 'application/json' });
    expect(plain.headers.get('content-type')).to.match(/^application\/json/);
    expect(eventsOf(plain.body).map((e) => e.eventID)).to.deep.equal(eventsOf(res.body).map((e) => e.eventID));
  });

  it('filters: time window, business step, read point, business location, EPC exact and class pattern', async () => {
    const mid = all[Math.floor(all.length / 2)]!.eventTime;
    const { events: late } = await walk({ GE_eventTime: mid, perPage: '1000' });
    expect(late.map((e) => e.eventID)).to.deep.equal(all.filter((e) => e.eventTime >= mid).map((e) => e.eventID));
    const { events: early } = await walk({ LT_eventTime: mid, perPage: '1000' });
    expect(early.length + late.length).to.equal(all.length);

    const { events: departing } = await walk({ EQ_bizStep: 'departing', perPage: '1000' });
    expect(departing.map((e) => e.eventID)).to.deep.equal(all.filter((e) => e.bizStep === 'departing').map((e) => e.eventID));
    // Several values: one parameter, `|`-separated (the REST binding's pipeDelimited style), `%7C` as the standard's examples write it or raw.
    const both = all.filter((e) => e.bizStep === 'arriving' || e.bizStep === 'departing').map((e) => e.eventID);
    expect(both.length).to.be.greaterThan(departing.length);
    expect((await walk({ EQ_bizStep: 'arriving|departing', perPage: '1000' })).events.map((e) => e.eventID)).to.deep.equal(both);
    const raw = await app.request('GET', `${EVENTS}?EQ_bizStep=departing|https://ref.gs1.org/cbv/BizStep-arriving&perPage=1000`);
    expectStatus(raw, 200);
    expect(eventsOf(raw.body).map((e) => e.eventID)).to.deep.equal(both);

    const rp = all[0]!.readPoint.id;
    const { events: atRp } = await walk({ EQ_readPoint: rp, perPage: '1000' });
    expect(atRp.length).to.be.greaterThan(0);
    expect(atRp.map((e) => e.eventID)).to.deep.equal(all.filter((e) => e.readPoint.id === rp).map((e) => e.eventID));

    const bl = all[0]!.bizLocation!.id;
    const { events: atBl } = await walk({ EQ_bizLocation: bl, perPage: '1000' });
    expect(atBl.map((e) => e.eventID)).to.deep.equal(all.filter((e) => e.bizLocation?.id === bl).map((e) => e.eventID));

    const epc = all[0]!.epcList[0]!;
    const { events: one } = await walk({ MATCH_epc: epc, perPage: '1000' });
    expect(one.map((e) => e.eventID)).to.deep.equal(all.filter((e) => e.epcList[0] === epc).map((e) => e.eventID));
    const { events: cls } = await walk({ MATCH_epc: 'urn:epc:idpat:sgtin:0614141.812345.*', perPage: '1000' });
    expect(cls.map((e) => e.epcList[0])).to.deep.equal(['urn:epc:id:sgtin:0614141.812345.6789', 'urn:epc:id:sgtin:0614141.812345.6790']);
    const { events: two } = await walk({ MATCH_epc: `urn:epc:id:sgtin:0614141.812345.6790|${epcUriOf(OTHER_CLASS)}`, perPage: '1000' });
    expect(two.map((e) => e.epcList[0])).to.deep.equal(['urn:epc:id:sgtin:0614141.812345.6790', epcUriOf(OTHER_CLASS)]);
  });

  it('configured identifiers (SGLN, time zone) replace the defaults in answers and filters', async () => {
    const facility = decodeURIComponent(all[0]!.bizLocation!.id.slice(`${BASE}facilities/`.length));
    const zone = decodeURIComponent(all[0]!.readPoint.id.split('/zones/')[1]!);
    const put = await app.request('PUT', '/configuration/v1/epcisLocations/createOrReplace', {
      body: { facility, bizLocation: 'urn:epc:id:sgln:0614141.00777.0', timeZone: 'America/New_York', zones: { [zone]: 'urn:epc:id:sgln:0614141.00777.1' } },
    });
    expectStatus(put, 200);
    const { events } = await walk({ EQ_bizLocation: 'urn:epc:id:sgln:0614141.00777.0', perPage: '1000' });
    expect(events.length).to.equal(all.filter((e) => e.bizLocation !== undefined).length);
    const first = events.find((e) => e.eventID === all[0]!.eventID)!;
    expect(first.readPoint.id).to.equal('urn:epc:id:sgln:0614141.00777.1');
    expect((first as unknown as { eventTimeZoneOffset: string }).eventTimeZoneOffset).to.match(/^-0[45]:00$/);
    const refused = await app.request('PUT', '/configuration/v1/epcisLocations/createOrReplace', { body: { facility: 'Nowhere' } });
    expectStatus(refused, 400);
    expect(refused.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['body.facility']);
    expectStatus(await app.request('DELETE', `/configuration/v1/epcisLocations/destroy/${encodeURIComponent(facility)}`), 204);
  });

  it('a threshold transition is arriving through the door, at its crossing time', async () => {
    const client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    const time = Date.parse('2031-01-01T00:00:00.000Z');
    const transition = {
      transitionId: 't-1', jobId: 'j', thresholdId: 3, thresholdName: 'Dock 3', facility: 'DEFAULT', epc: '3074257BF7194E4000001A85', tid: null,
      destination: 'IN' as const, confidence: 0.9, observationTime: time, reportToDatabaseEnabled: true, reportToMessageQueueEnabled: false,
    };
    await client.appendToStream(ENGINE_STREAM, [encodeEvent(itemEvents, { type: 'ItemsChanged', data: { inputPosition: '0', at: time, changes: [], transitions: [transition] } })]);
    await client.dispose();
    const events = await waitFor('the transition as an EPCIS event', async () => {
      const list = eventsOf((await query({ GE_eventTime: '2031-01-01T00:00:00Z' })).body);
      return list.length > 0 ? list : undefined;
    });
    expect(events).to.have.length(1);
    expect(events[0]).to.deep.include({ eventTime: '2031-01-01T00:00:00.000Z', bizStep: 'arriving', epcList: ['urn:epc:id:sgtin:0614141.812345.6789'], readPoint: { id: `${BASE}facilities/DEFAULT/thresholds/Dock%203` } });
  });

  it('bad parameters are problem+json naming the parameter; a token of another query is refused', async () => {
    const bad = await query({ perPage: '0', EQ_action: 'ADD' });
    expectStatus(bad, 400);
    expect(bad.headers.get('content-type')).to.match(/^application\/problem\+json/);
    expect(bad.body).to.include({ type: 'epcisException:QueryParameterException', status: 400 });
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).to.deep.equal(['query.EQ_action', 'query.perPage']);
    // A repeated parameter is not how EPCIS lists values: refused, not half-answered.
    const repeated = await app.request('GET', `${EVENTS}?EQ_bizStep=arriving&EQ_bizStep=departing`);
    expectStatus(repeated, 400);
    expect(repeated.body.errors.map((e: { path: string; reason: string }) => [e.path, e.reason])).to.deep.equal([['query.EQ_bizStep', 'must be given once, its values separated by | (EPCIS REST binding: pipeDelimited)']]);
    const badItem = await query({ MATCH_epc: 'urn:epc:id:sgtin:0614141.812345.6789|not a uri' });
    expectStatus(badItem, 400);
    expect(badItem.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['query.MATCH_epc']);
    const first = await query({ perPage: '1' });
    const token = new URL(`http://x${/^<([^>]+)>/.exec(first.headers.get('link')!)![1]}`).searchParams.get('nextPageToken')!;
    const other = await query({ perPage: '1', EQ_bizStep: 'arriving', nextPageToken: token });
    expectStatus(other, 400);
    expect(other.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['query.nextPageToken']);
  });

  it('DataReader may query; a user without it may not; no credentials is 401', async () => {
    const reader = await createUser(app, 'epcis-reader', ['DataReader']);
    const other = await createUser(app, 'epcis-config', ['ConfigManager']);
    expectStatus(await app.request('GET', EVENTS, { auth: reader }), 200);
    expectStatus(await app.request('GET', EVENTS, { auth: other }), 403);
    expectStatus(await app.request('GET', EVENTS, { auth: null }), 401);
  });
});
