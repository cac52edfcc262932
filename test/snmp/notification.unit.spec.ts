import { expect } from 'chai';
import type { HealthStreamEvent } from '../../src/health/events';
import { isStale, notificationOf } from '../../src/snmp/notification';
import { NOTIFICATION_OIDS } from '../../src/snmp/oids';

const reported = (code: string, type: string, eventTime = '2026-11-23T10:00:00.000Z'): HealthStreamEvent =>
  ({ type: 'HealthEventReported', data: { readerName: 'r1', eventTime, type, code, args: { a: 1 } } }) as HealthStreamEvent;

describe('SNMP notification of a health event', () => {
  it('a WARNING code gives readerHealthWarning with the status object it degrades', () => {
    const n = notificationOf(reported('NTP', 'CLOCK_SYNC'), 'id-1');
    expect(n?.oid).to.equal(NOTIFICATION_OIDS.readerHealthWarning);
    expect(n?.objects).to.deep.equal({
      readerName: 'r1', eventType: 'CLOCK_SYNC', code: 'NTP', severity: 'WARNING', statusObject: 'clockSyncStatus',
      eventTime: '2026-11-23T10:00:00.000Z', args: '{"a":1}', eventId: 'id-1',
    });
  });

  it('a FAILED code gives readerHealthFailed', () => {
    expect(notificationOf(reported('READER_RESTART', 'HARDWARE_FAULT'), 'x')?.oid).to.equal(NOTIFICATION_OIDS.readerHealthFailed);
  });

  it('lifecycle and unclassified codes, check-ins and ReaderResponding send nothing', () => {
    for (const [code, type] of [['REBOOT', 'LIFECYCLE'], ['VERSION_UPDATE', 'LIFECYCLE'], ['HEALTH_RESET', 'LIFECYCLE'], ['KNOWN', 'UNCLASSIFIED']] as const) {
      expect(notificationOf(reported(code, type), 'x'), code).to.equal(undefined);
    }
    const responding = { type: 'ReaderResponding', data: { readerName: 'r1', eventTime: '2026-11-23T10:00:00.000Z', lastCheckin: '2026-11-23T09:00:00.000Z' } } as HealthStreamEvent;
    expect(notificationOf(responding, 'x')).to.equal(undefined);
  });

  it('ReaderNotResponding gives readerNotResponding with the last check-in in args', () => {
    const e = { type: 'ReaderNotResponding', data: { readerName: 'r9', eventTime: '2026-11-23T10:00:00.000Z', lastCheckin: '2026-11-23T09:59:00.000Z' } } as HealthStreamEvent;
    const n = notificationOf(e, 'id');
    expect(n?.oid).to.equal(NOTIFICATION_OIDS.readerNotResponding);
    expect(n?.objects).to.include({ readerName: 'r9', code: 'NOT_RESPONDING', severity: 'FAILED', statusObject: 'state', args: '{"lastCheckin":"2026-11-23T09:59:00.000Z"}' });
  });

  it('is stale once outside the status window (no longer degrading anything)', () => {
    const n = notificationOf(reported('NTP', 'CLOCK_SYNC', '2026-11-23T10:00:00.000Z'), 'x')!;
    expect(isStale(n, new Date('2026-11-23T10:14:59.000Z'), 15)).to.equal(false);
    expect(isStale(n, new Date('2026-11-23T10:15:00.000Z'), 15)).to.equal(true);
  });
});
