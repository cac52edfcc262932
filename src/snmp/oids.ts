// tagtrail's SNMP object identifiers (docs/snmp.md). tagtrail has no IANA
// Private Enterprise Number of its own yet, so the tree hangs under 32473,
// the number RFC 5612 reserves for documentation and examples: it can never
// clash with a real vendor's tree. A deployment that registers a PEN changes
// ENTERPRISE only; the arcs below it stay.
export const ENTERPRISE = '1.3.6.1.4.1.32473';
/** tagtrail's subtree under the enterprise. */
export const TAGTRAIL = `${ENTERPRISE}.7`;
/** Notification types (the value of snmpTrapOID.0). */
export const NOTIFICATIONS = `${TAGTRAIL}.0`;
/** Objects sent as varbinds. */
export const OBJECTS = `${TAGTRAIL}.1`;

export const NOTIFICATION_OIDS = {
  /** A health event of WARNING severity (docs/health.md code table). */
  readerHealthWarning: `${NOTIFICATIONS}.1`,
  /** A health event of FAILED severity. */
  readerHealthFailed: `${NOTIFICATIONS}.2`,
  /** tagtrail noticed that a reader stopped checking in. */
  readerNotResponding: `${NOTIFICATIONS}.3`,
} as const;

/** Varbinds of every tagtrail notification, in this order, all OCTET STRING. */
export const OBJECT_OIDS = {
  readerName: `${OBJECTS}.1.0`,
  eventType: `${OBJECTS}.2.0`,
  code: `${OBJECTS}.3.0`,
  severity: `${OBJECTS}.4.0`,
  statusObject: `${OBJECTS}.5.0`,
  eventTime: `${OBJECTS}.6.0`,
  args: `${OBJECTS}.7.0`,
  eventId: `${OBJECTS}.8.0`,
} as const;
export type NotificationObject = keyof typeof OBJECT_OIDS;
