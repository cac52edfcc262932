// Which health events become SNMP notifications, and what they carry. Pure.
//
// "Degrades a reader's status": an event whose code sets a status object to
// WARNING or FAILED (STATUS_CODES in src/health/codes.ts), and tagtrail's own
// ReaderNotResponding (the reader's state becomes NOT_RESPONDING). Every such
// event is sent, also when the status object was already degraded: each is a
// new fault the operator may want to count. Lifecycle events (REBOOT,
// VERSION_UPDATE, HEALTH_RESET), ReaderResponding and check-ins improve or
// keep the status and send nothing.
import { isStatusCode, STATUS_CODES, type HealthStreamEvent } from '../health';
import { NOTIFICATION_OIDS, type NotificationObject } from './oids';

export interface SnmpNotification {
  /** snmpTrapOID.0 */
  readonly oid: string;
  /** Values of the tagtrail objects (all sent, in OBJECT_OIDS order). */
  readonly objects: Readonly<Record<NotificationObject, string>>;
  /** eventTime, for the staleness rule. */
  readonly eventTime: string;
}

export function notificationOf(event: HealthStreamEvent, eventId: string): SnmpNotification | undefined {
  if (event.type === 'ReaderNotResponding') {
    const d = event.data;
    return {
      oid: NOTIFICATION_OIDS.readerNotResponding,
      eventTime: d.eventTime,
      objects: {
        readerName: d.readerName,
        eventType: 'LIFECYCLE',
        code: 'NOT_RESPONDING',
        severity: 'FAILED',
        statusObject: 'state',
        eventTime: d.eventTime,
        args: JSON.stringify({ lastCheckin: d.lastCheckin }),
        eventId,
      },
    };
  }
  if (event.type !== 'HealthEventReported') return undefined;
  const d = event.data;
  if (!isStatusCode(d.code)) return undefined;
  const { severity, category } = STATUS_CODES[d.code];
  return {
    oid: severity === 'FAILED' ? NOTIFICATION_OIDS.readerHealthFailed : NOTIFICATION_OIDS.readerHealthWarning,
    eventTime: d.eventTime,
    objects: {
      readerName: d.readerName,
      eventType: d.type,
      code: d.code,
      severity,
      statusObject: category,
      eventTime: d.eventTime,
      args: JSON.stringify(d.args),
      eventId,
    },
  };
}

/**
 * An event older than the health status window no longer counts towards the
 * reader's status (docs/health.md), so it degrades nothing any more: after an
 * outage or on the very first start the sender skips such events instead of
 * flooding the manager with history.
 */
export function isStale(n: SnmpNotification, now: Date, statusWindowMinutes: number): boolean {
  const at = Date.parse(n.eventTime);
  return !Number.isFinite(at) || at <= now.getTime() - statusWindowMinutes * 60_000;
}
