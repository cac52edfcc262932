// The pure mapping from the engine's output to EPCIS 2.0 ObjectEvents: which
// facts become events, action/bizStep/disposition per kind, readPoint and
// bizLocation from configured and default identifiers, time zone offsets,
// EPC URIs (pure identity or raw), stable event ids, MATCH_epc patterns and
// the query parameters; every document passes GS1's EPCIS 2.0 schema.
import { expect } from 'chai';
import { ABSENT } from '../../src/engine/zones';
import type { ItemChangeStrictCodec } from '../../src/engine/events';
import type { ThresholdTransition } from '../../src/engine/threshold/transition';
import { sourcesOf, type SourceEvent } from '../../src/epcis/source';
import { eventIdOf, objectEventOf, timeZoneOffset } from '../../src/epcis/mapping';
import { locationIds, documentOf, EpcisLocationBody } from '../../src/epcis/locations';
import { epcMatches, epcUriOf } from '../../src/epcis/epc-uri';
import { epcisDocument, epcisQueryDocument } from '../../src/epcis/document';
import { parseEpcisQuery } from '../../src/epcis/query';
import { matchesQuery } from '../../src/epcis/readmodel';
import { ApiError } from '../../src/core/http/errors';
import { epcisErrors, expectValidEpcis } from './validate';
import type * as t from 'io-ts';
import * as E from 'fp-ts/Either';

type Change = t.TypeOf<typeof ItemChangeStrictCodec>;
const T0 = Date.parse('2026-07-01T08:00:00.000Z');
const SGTIN = '3074257BF7194E4000001A85';
const SGTIN_URI = 'urn:epc:id:sgtin:0614141.812345.6789';
const RAW = 'E28011606000020000000001';
const BASE = 'https://ids.example.com/';

const change = (over: Partial<Change>): Change => ({
  kind: 'FIRST_SEEN', epc: SGTIN, tid: null, jobId: 'j1', fromZone: ABSENT, toZone: 'Z1', fromFloor: null, toFloor: '1',
  fromFacility: null, toFacility: 'North', fromX: null, fromY: null, toX: 1, toY: 2, observationTime: T0,
  reportToDatabaseEnabled: true, reportToHistoryEnabled: true, reportToMessageQueueEnabled: true, ...over,
});
const transition = (over: Partial<ThresholdTransition>): ThresholdTransition => ({
  transitionId: 'x', jobId: 'j2', thresholdId: 1, thresholdName: 'Dock 1', facility: 'North', epc: SGTIN, tid: null,
  destination: 'IN', confidence: 0.9, observationTime: T0 + 500, reportToDatabaseEnabled: true, reportToMessageQueueEnabled: true, ...over,
});
const event = (changes: Change[], transitions: ThresholdTransition[] = []): SourceEvent => ({
  id: '11111111-2222-4333-8444-555555555555', created: T0 + 10_000, data: { inputPosition: '0', at: T0, changes, transitions },
});
const defaults = locationIds(BASE, []);

describe('EPCIS mapping', () => {
  describe('which facts become events', () => {
    it('history records (not heartbeats, not with reportToHistoryEnabled false) and transitions kept in the database, in event order', () => {
      const s = sourcesOf(event(
        [
          change({}),
          change({ kind: 'HEARTBEAT', fromZone: 'Z1' }),
          change({ kind: 'ZONE_CHANGE', fromZone: 'Z1', toZone: 'Z2', fromFacility: 'North' }),
          change({ kind: 'MOVED', fromZone: 'Z2', toZone: 'Z2', fromFacility: 'North' }),
          change({ kind: 'EXPIRED', fromZone: 'Z2', toZone: ABSENT, fromFacility: 'North', toFacility: 'North' }),
          change({ reportToHistoryEnabled: false }),
        ],
        [transition({}), transition({ destination: 'OUT' }), transition({ reportToDatabaseEnabled: false })],
      ));
      expect(s.map((x) => [x.kind, x.ref, x.zone, x.facility, x.threshold])).to.deep.equal([
        ['FIRST_SEEN', '0', 'Z1', 'North', null],
        ['ZONE_CHANGE', '2', 'Z2', 'North', null],
        ['MOVED', '3', 'Z2', 'North', null],
        ['EXPIRED', '4', 'Z2', 'North', null],
        ['DOOR_IN', 't0', null, 'North', 'Dock 1'],
        ['DOOR_OUT', 't1', null, 'North', 'Dock 1'],
      ]);
    });
  });

  describe('ObjectEvent per kind', () => {
    const [first, zone, moved, exit, doorIn, doorOut] = sourcesOf(event(
      [
        change({}),
        change({ kind: 'ZONE_CHANGE', fromZone: 'Z1', toZone: 'Z2', fromFacility: 'North', observationTime: T0 + 1000 }),
        change({ kind: 'MOVED', fromZone: 'Z2', toZone: 'Z2', fromFacility: 'North', observationTime: T0 + 2000 }),
        change({ kind: 'EXPIRED', fromZone: 'Z2', toZone: ABSENT, fromFacility: 'North', toFacility: 'North', observationTime: T0 + 3000 }),
      ],
      [transition({}), transition({ destination: 'OUT' })],
    )).map((s) => objectEventOf(s, defaults, { withRecordTime: false }));

    it('first sight: OBSERVE, arriving, in_progress, read point = the zone, business location = the facility', () => {
      expect(first).to.deep.include({
        type: 'ObjectEvent', action: 'OBSERVE', bizStep: 'arriving', disposition: 'in_progress', epcList: [SGTIN_URI],
        eventTime: '2026-07-01T08:00:00.000Z', eventTimeZoneOffset: '+00:00',
        readPoint: { id: `${BASE}facilities/North/zones/Z1` }, bizLocation: { id: `${BASE}facilities/North` },
      });
      expect(first).not.to.have.property('recordTime');
    });
    it('zone change: arriving at the new zone', () => {
      expect(zone).to.deep.include({ bizStep: 'arriving', readPoint: { id: `${BASE}facilities/North/zones/Z2` }, eventTime: '2026-07-01T08:00:01.000Z' });
    });
    it('move inside a zone: an observation without business step', () => {
      expect(moved).not.to.have.property('bizStep');
      expect(moved).to.deep.include({ action: 'OBSERVE', disposition: 'in_progress', readPoint: { id: `${BASE}facilities/North/zones/Z2` } });
    });
    it('exit: departing, in_transit, read point = the zone it left, no business location', () => {
      expect(exit).to.deep.include({ bizStep: 'departing', disposition: 'in_transit', readPoint: { id: `${BASE}facilities/North/zones/Z2` } });
      expect(exit).not.to.have.property('bizLocation');
    });
    it('threshold IN: arriving through the door; OUT: departing, no business location', () => {
      expect(doorIn).to.deep.include({ bizStep: 'arriving', readPoint: { id: `${BASE}facilities/North/thresholds/Dock%201` }, bizLocation: { id: `${BASE}facilities/North` } });
      expect(doorOut).to.deep.include({ bizStep: 'departing', disposition: 'in_transit', readPoint: { id: `${BASE}facilities/North/thresholds/Dock%201` } });
      expect(doorOut).not.to.have.property('bizLocation');
    });
    it('every event passes the EPCIS 2.0 schema, in an EPCISDocument and in an EPCISQueryDocument', () => {
      const all = [first!, zone!, moved!, exit!, doorIn!, doorOut!];
      expectValidEpcis(epcisDocument(all, new Date(T0)));
      expectValidEpcis(epcisQueryDocument(all, new Date(T0)));
    });
    it('the validator does refuse a broken event (so the checks above can fail)', () => {
      expect(epcisErrors(epcisDocument([{ ...first!, action: 'LOOK' as never }], new Date(T0)))).to.have.length.above(0);
      expect(epcisErrors(epcisDocument([{ ...first!, eventTimeZoneOffset: '1:00' }], new Date(T0)))).to.have.length.above(0);
    });
  });

  describe('identifiers', () => {
    it('configured SGLNs and URLs win over the defaults; the facility time zone gives the offset', () => {
      const body = EpcisLocationBody.decode({
        facility: 'North', bizLocation: 'urn:epc:id:sgln:0614141.00777.0', timeZone: 'Europe/Berlin',
        zones: { Z1: 'urn:epc:id:sgln:0614141.00777.1' }, thresholds: { 'Dock 1': 'https://partner.example/doors/1' },
      });
      if (E.isLeft(body)) throw new Error('body does not decode');
      const ids = locationIds(BASE, [documentOf(body.right)]);
      const [first, , doorIn] = sourcesOf(event([change({}), change({ toZone: 'Z9', epc: RAW })], [transition({})])).map((s) => objectEventOf(s, ids, { withRecordTime: true }));
      expect(first).to.deep.include({ readPoint: { id: 'urn:epc:id:sgln:0614141.00777.1' }, bizLocation: { id: 'urn:epc:id:sgln:0614141.00777.0' }, eventTimeZoneOffset: '+02:00', recordTime: '2026-07-01T08:00:10.000Z' });
      expect(doorIn!.readPoint).to.deep.equal({ id: 'https://partner.example/doors/1' });
      const z9 = objectEventOf(sourcesOf(event([change({ toZone: 'Z9' })]))[0]!, ids, { withRecordTime: false });
      expect(z9.readPoint).to.deep.equal({ id: `${BASE}facilities/North/zones/Z9` });
      expectValidEpcis(epcisDocument([first!, doorIn!, z9], new Date(T0)));
    });
    it('a location body refuses what is not a URI or time zone, naming the field', () => {
      const r = EpcisLocationBody.decode({ facility: 'North', bizLocation: 'not a uri', timeZone: 'Mars/Base', zones: { Z1: 'ftp://x' } });
      expect(E.isLeft(r)).to.equal(true);
      const paths = E.isLeft(r) ? r.left.map((e) => e.context.map((c) => c.key).filter((k) => k !== '' && !/^\d+$/.test(k)).join('.')) : [];
      expect(paths.join(' ')).to.include('bizLocation').and.include('timeZone').and.include('zones.Z1');
    });
    it('time zone offsets follow daylight saving and half hours', () => {
      expect(timeZoneOffset(Date.parse('2026-01-15T12:00:00Z'), 'Europe/Berlin')).to.equal('+01:00');
      expect(timeZoneOffset(Date.parse('2026-07-15T12:00:00Z'), 'Europe/Berlin')).to.equal('+02:00');
      expect(timeZoneOffset(0, 'Asia/Kolkata')).to.equal('+05:30');
      expect(timeZoneOffset(Date.parse('2026-01-15T12:00:00Z'), 'America/New_York')).to.equal('-05:00');
      expect(timeZoneOffset(0, 'UTC')).to.equal('+00:00');
      expect(timeZoneOffset(0, undefined)).to.equal('+00:00');
    });
  });

  describe('EPCs and event ids', () => {
    it('a decodable EPC is its pure identity URI; one that does not decode is the TDS raw URI', () => {
      expect(epcUriOf(SGTIN.toLowerCase())).to.equal(SGTIN_URI);
      expect(epcUriOf(RAW)).to.equal(`urn:epc:raw:96.x${RAW}`);
      expect(epcUriOf('ABC')).to.equal('urn:epc:raw:12.xABC');
    });
    it('the event id is a name-based UUID of the fact: the same for the same fact, different for another', () => {
      const a = eventIdOf('11111111-2222-4333-8444-555555555555', '0');
      expect(a).to.match(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(eventIdOf('11111111-2222-4333-8444-555555555555', '0')).to.equal(a);
      expect(eventIdOf('11111111-2222-4333-8444-555555555555', '1')).not.to.equal(a);
      expect(eventIdOf('11111111-2222-4333-8444-555555555555', 't0')).not.to.equal(a);
      expect(eventIdOf('11111111-2222-4333-8444-555555555556', '0')).not.to.equal(a);
      const ids = new Set(sourcesOf(event([change({}), change({ toZone: 'Z2' })], [transition({})])).map((s) => objectEventOf(s, defaults, { withRecordTime: false }).eventID));
      expect(ids.size).to.equal(3);
    });
    it('MATCH_epc: exact URIs and TDS patterns with * per field', () => {
      expect(epcMatches(SGTIN_URI, SGTIN_URI)).to.equal(true);
      expect(epcMatches('urn:epc:id:sgtin:0614141.812345.6788', SGTIN_URI)).to.equal(false);
      expect(epcMatches('urn:epc:idpat:sgtin:0614141.812345.*', SGTIN_URI)).to.equal(true);
      expect(epcMatches('urn:epc:idpat:sgtin:0614141.*.*', SGTIN_URI)).to.equal(true);
      expect(epcMatches('urn:epc:idpat:sgtin:0614141.812346.*', SGTIN_URI)).to.equal(false);
      expect(epcMatches('urn:epc:idpat:sscc:0614141.*', SGTIN_URI)).to.equal(false);
      expect(epcMatches('urn:epc:idpat:sgtin:0614141.*', SGTIN_URI)).to.equal(false);
      expect(epcMatches(`urn:epc:raw:96.x${RAW}`, `urn:epc:raw:96.x${RAW}`)).to.equal(true);
      expect(epcMatches('urn:epc:idpat:sgtin:*.*.*', `urn:epc:raw:96.x${RAW}`)).to.equal(false);
    });
  });

  describe('query parameters', () => {
    const refused = (raw: Record<string, string | string[]>): string[] => {
      try {
        parseEpcisQuery(raw);
      } catch (e) {
        if (e instanceof ApiError && e.status === 400) return e.errors.map((x) => x.path);
        throw e;
      }
      throw new Error('accepted');
    };
    it('each bad or unknown parameter is named', () => {
      expect(refused({ GE_eventTime: 'yesterday' })).to.deep.equal(['query.GE_eventTime']);
      expect(refused({ GE_eventTime: '2026-07-02T00:00:00Z', LT_eventTime: '2026-07-01T00:00:00Z' })).to.deep.equal(['query.LT_eventTime']);
      expect(refused({ EQ_bizLocation: 'north' })).to.deep.equal(['query.EQ_bizLocation']);
      expect(refused({ EQ_readPoint: 'https://a.example/x|zone 1' })).to.deep.equal(['query.EQ_readPoint']);
      expect(refused({ MATCH_epc: '3074257BF7194E4000001A85' })).to.deep.equal(['query.MATCH_epc']);
      expect(refused({ EQ_bizStep: 'Arriving!' })).to.deep.equal(['query.EQ_bizStep']);
      expect(refused({ perPage: '0' })).to.deep.equal(['query.perPage']);
      expect(refused({ perPage: '1001' })).to.deep.equal(['query.perPage']);
      expect(refused({ EQ_action: 'OBSERVE' })).to.deep.equal(['query.EQ_action']);
      expect(refused({ nextPageToken: 'forged.token' })).to.deep.equal(['query.nextPageToken']);
      expect(refused({ perPage: ['1', '2'] })).to.deep.equal(['query.perPage']);
    });
    it('filters: every given one must hold; business steps in any CBV spelling', () => {
      const [first, , , exit] = sourcesOf(event([
        change({}),
        change({ kind: 'ZONE_CHANGE', fromZone: 'Z1', toZone: 'Z2', fromFacility: 'North' }),
        change({ kind: 'MOVED', fromZone: 'Z2', toZone: 'Z2', fromFacility: 'North' }),
        change({ kind: 'EXPIRED', fromZone: 'Z2', toZone: ABSENT, fromFacility: 'North' }),
      ])).map((s) => objectEventOf(s, defaults, { withRecordTime: true }));
      const q = (raw: Record<string, string>) => parseEpcisQuery(raw);
      expect(matchesQuery(first!, q({ EQ_bizStep: 'https://ref.gs1.org/cbv/BizStep-arriving' }))).to.equal(true);
      expect(matchesQuery(first!, q({ EQ_bizStep: 'urn:epcglobal:cbv:bizstep:departing' }))).to.equal(false);
      expect(matchesQuery(exit!, q({ EQ_bizStep: 'departing|shipping' }))).to.equal(true);
      expect(matchesQuery(exit!, q({ EQ_bizLocation: `${BASE}facilities/North` }))).to.equal(false);
      expect(matchesQuery(first!, q({ EQ_bizLocation: `${BASE}facilities/North`, EQ_readPoint: `${BASE}facilities/North/zones/Z1` }))).to.equal(true);
      expect(matchesQuery(first!, q({ EQ_readPoint: `${BASE}facilities/North/zones/Z2` }))).to.equal(false);
      expect(matchesQuery(first!, q({ MATCH_epc: `urn:epc:idpat:sgtin:0614141.812345.*|urn:epc:id:sgtin:1.2.3` }))).to.equal(true);
      expect(matchesQuery(first!, q({ MATCH_epc: 'urn:epc:idpat:sgtin:0614142.*.*' }))).to.equal(false);
    });
  });
});
