import { expect } from 'chai';
import { itemMessageBody, matchesHealthFilter, matchesItemFilter } from '../../src/queues/match';
import { healthFilterError, parseDeliveryMode } from '../../src/queues/validate';
import { compact, serverUrl, type ItemQueueFilter } from '../../src/queues/model';
import type { ItemChange } from '../../src/engine';
import type { HealthEventView } from '../../src/health/searchable';
import { change as baseChange } from './support';

// The shared fixture, moved 3 m east and 4 m north (5 m) from DOCK to SHELF of STORE.
const change = (over: Partial<ItemChange> = {}): ItemChange =>
  baseChange({ epc: 'E28011606000020A', tid: 'E2801160', jobId: 'job-1', toX: 3, toY: 4, ...over });
const f = (filter: Partial<ItemQueueFilter>): ItemQueueFilter => filter as ItemQueueFilter;

describe('queues: item filter matching', () => {
  it('an empty filter receives every zone transition of a job reporting to queues', () => {
    for (const kind of ['FIRST_SEEN', 'ZONE_CHANGE', 'EXPIRED'] as const) expect(matchesItemFilter(f({}), change({ kind })), kind).to.equal(true);
  });
  it('nothing from jobs with reportToMessageQueueEnabled false', () => {
    expect(matchesItemFilter(f({}), change({ reportToMessageQueueEnabled: false }))).to.equal(false);
    expect(matchesItemFilter(f({ zoneTransitionsOnly: false }), change({ kind: 'MOVED', reportToMessageQueueEnabled: false }))).to.equal(false);
  });
  it('MOVED only with zoneTransitionsOnly=false (default true); HEARTBEAT never', () => {
    expect(matchesItemFilter(f({}), change({ kind: 'MOVED' }))).to.equal(false);
    expect(matchesItemFilter(f({ zoneTransitionsOnly: true }), change({ kind: 'MOVED' }))).to.equal(false);
    expect(matchesItemFilter(f({ zoneTransitionsOnly: false }), change({ kind: 'MOVED' }))).to.equal(true);
    expect(matchesItemFilter(f({ zoneTransitionsOnly: false }), change({ kind: 'HEARTBEAT' }))).to.equal(false);
  });
  it('each zone and facility field compares with its side of the change', () => {
    expect(matchesItemFilter(f({ fromZone: 'DOCK' }), change())).to.equal(true);
    expect(matchesItemFilter(f({ fromZone: 'SHELF' }), change())).to.equal(false);
    expect(matchesItemFilter(f({ toZone: 'SHELF' }), change())).to.equal(true);
    expect(matchesItemFilter(f({ toZone: 'DOCK' }), change())).to.equal(false);
    expect(matchesItemFilter(f({ fromFacility: 'STORE' }), change({ toFacility: 'DC' }))).to.equal(true);
    expect(matchesItemFilter(f({ toFacility: 'STORE' }), change({ toFacility: 'DC' }))).to.equal(false);
    expect(matchesItemFilter(f({ toFacility: 'DC' }), change({ toFacility: 'DC' }))).to.equal(true);
    expect(matchesItemFilter(f({ fromFacility: 'STORE' }), change({ kind: 'FIRST_SEEN', fromZone: 'ABSENT', fromFacility: null }))).to.equal(false);
  });
  it('an exit to ABSENT goes to no facility: toFacility does not match it, fromFacility does; the message says toFacility null', () => {
    const exit = change({ kind: 'EXPIRED', toZone: 'ABSENT', toFloor: null, toX: null, toY: null, toFacility: 'STORE' });
    expect(matchesItemFilter(f({ toFacility: 'STORE' }), exit)).to.equal(false);
    expect(matchesItemFilter(f({ fromFacility: 'STORE' }), exit)).to.equal(true);
    expect(matchesItemFilter(f({ toFacility: 'STORE' }), change({ kind: 'MOVED', fromZone: 'SHELF' }))).to.equal(false);
    expect(matchesItemFilter(f({ toFacility: 'STORE', zoneTransitionsOnly: false }), change({ kind: 'MOVED', fromZone: 'SHELF' })), 'a move inside STORE').to.equal(true);
    expect(itemMessageBody(exit)).to.include({ fromFacility: 'STORE', toFacility: null, toZone: 'ABSENT' });
  });
  it('epc is a case-insensitive prefix; jobId is exact', () => {
    expect(matchesItemFilter(f({ epc: 'e2801160' }), change())).to.equal(true);
    expect(matchesItemFilter(f({ epc: 'E28011606000020A' }), change())).to.equal(true);
    expect(matchesItemFilter(f({ epc: 'E3' }), change())).to.equal(false);
    expect(matchesItemFilter(f({ jobId: 'job-1' }), change())).to.equal(true);
    expect(matchesItemFilter(f({ jobId: 'job-2' }), change())).to.equal(false);
  });
  it('distance: at least that many meters between two known locations', () => {
    expect(matchesItemFilter(f({ distance: 5 }), change())).to.equal(true); // 3-4-5
    expect(matchesItemFilter(f({ distance: 5.01 }), change())).to.equal(false);
    expect(matchesItemFilter(f({ distance: 1 }), change({ fromX: null, fromY: null }))).to.equal(false);
    expect(matchesItemFilter(f({ distance: 0 }), change({ fromX: null, fromY: null }))).to.equal(true);
  });
  it('all present fields must match', () => {
    expect(matchesItemFilter(f({ fromZone: 'DOCK', toZone: 'SHELF', jobId: 'job-1', epc: 'E2' }), change())).to.equal(true);
    expect(matchesItemFilter(f({ fromZone: 'DOCK', toZone: 'SHELF', jobId: 'job-2' }), change())).to.equal(false);
  });
  it('the message body is the interface ItemEvent (upper-case EPC, tagId, ISO time, no job or kind)', () => {
    expect(itemMessageBody(change({ epc: 'e28011606000020a', tid: null }))).to.deep.equal({
      epc: 'E28011606000020A', tagId: '', fromZone: 'DOCK', toZone: 'SHELF', fromFloor: '1', toFloor: '1',
      fromFacility: 'STORE', toFacility: 'STORE', fromX: 0, toX: 3, fromY: 0, toY: 4, observationTime: '2024-03-01T08:00:00.000Z',
    });
  });
});

describe('queues: health filter', () => {
  const view: HealthEventView = { eventTime: '2024-03-01T08:00:00.000Z', readerName: 'r1', type: 'THROUGHPUT', code: 'DROPPED_READ', args: {} };
  it('matches on readerName, type and code, each optional', () => {
    expect(matchesHealthFilter({ readerName: undefined, type: undefined, code: undefined }, view)).to.equal(true);
    expect(matchesHealthFilter({ readerName: 'r1', type: 'THROUGHPUT', code: 'DROPPED_READ' }, view)).to.equal(true);
    expect(matchesHealthFilter({ readerName: 'r2', type: undefined, code: undefined }, view)).to.equal(false);
    expect(matchesHealthFilter({ readerName: undefined, type: 'CONNECTION', code: undefined }, view)).to.equal(false);
    expect(matchesHealthFilter({ readerName: undefined, type: undefined, code: 'REPORT_BUFFER' }, view)).to.equal(false);
  });
  it('refuses unknown codes and codes of another type, accepts responsiveness codes', () => {
    expect(healthFilterError({ readerName: undefined, type: undefined, code: 'NOPE' })?.errors[0]?.path).to.equal('body.code');
    expect(healthFilterError({ readerName: undefined, type: 'CONNECTION', code: 'NTP' })?.status).to.equal(400);
    expect(healthFilterError({ readerName: undefined, type: 'CLOCK_SYNC', code: 'NTP' })).to.equal(undefined);
    expect(healthFilterError({ readerName: undefined, type: 'LIFECYCLE', code: 'NOT_RESPONDING' })).to.equal(undefined);
    expect(healthFilterError({ readerName: undefined, type: 'LIFECYCLE', code: 'REBOOT' })).to.equal(undefined);
  });
});

describe('queues: descriptor and delivery mode', () => {
  it('serverUrl names vhost / URL-encoded', () => {
    expect(serverUrl('mq.example.com', 5672)).to.equal('amqp://mq.example.com:5672/%2F');
    expect(serverUrl('::1', 5672)).to.equal('amqp://[::1]:5672/%2F');
  });
  it('deliveryMode defaults to PERSISTENT and refuses other values', () => {
    expect(parseDeliveryMode(undefined)).to.equal('PERSISTENT');
    expect(parseDeliveryMode('NON_PERSISTENT')).to.equal('NON_PERSISTENT');
    expect(parseDeliveryMode('persistent')).to.be.instanceOf(Error);
  });
  it('stored filters hold only given fields (null counts as absent)', () => {
    expect(compact({ fromZone: 'A', toZone: null, epc: undefined })).to.deep.equal({ fromZone: 'A' });
  });
});
