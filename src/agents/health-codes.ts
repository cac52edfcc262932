// Health event types and codes (docs/interface.md; Health event, Health event
// types and codes). Each type accepts the codes of the status object it
// feeds; LIFECYCLE carries REBOOT, VERSION_UPDATE and HEALTH_RESET, and
// UNCLASSIFIED carries KNOWN and UNKNOWN. Reader health (src/health) reuses
// the table to derive the five status objects.
import * as t from 'io-ts';
import { failureReason, IsoTimestamp } from '../readerdefinitions';

export const HealthEventType = t.keyof(
  {
    CONNECTION: null,
    THROUGHPUT: null,
    CLOCK_SYNC: null,
    HARDWARE_FAULT: null,
    SOFTWARE_FAULT: null,
    LIFECYCLE: null,
    UNCLASSIFIED: null,
  },
  'CONNECTION | THROUGHPUT | CLOCK_SYNC | HARDWARE_FAULT | SOFTWARE_FAULT | LIFECYCLE | UNCLASSIFIED',
);
export type HealthEventType = t.TypeOf<typeof HealthEventType>;

/** The reader status property a code feeds, or null (no effect on status). */
export type StatusProperty = 'connectionStatus' | 'throughputStatus' | 'clockSyncStatus' | 'hardwareStatus' | 'softwareStatus';

/** type -> the codes an event of that type may carry. */
export const HEALTH_CODES: Readonly<Record<HealthEventType, readonly string[]>> = {
  CONNECTION: ['BAD_CERTIFICATE', 'HTTP_FAILURE', 'NETWORK'],
  THROUGHPUT: ['DROPPED_READ', 'REPORT_BUFFER', 'TAG_POPULATION_OVERFLOW'],
  CLOCK_SYNC: ['NTP'],
  HARDWARE_FAULT: ['READER_COMMAND', 'READER_EXCEPTION', 'READER_RESTART', 'UPGRADE_STATUS'],
  SOFTWARE_FAULT: [
    'CHECKSUM',
    'COMMAND_NOT_FOUND',
    'CONFIG_SERVICE_SET',
    'EXTERNAL_COMMAND',
    'FILE_SYSTEM',
    'INVALID_SET_VARIABLE',
    'UNMARSHAL',
    'LLRP',
    'PROVISIONING',
    'READER_CONNECTION',
    'CRASH',
  ],
  LIFECYCLE: ['REBOOT', 'VERSION_UPDATE', 'HEALTH_RESET'],
  UNCLASSIFIED: ['KNOWN', 'UNKNOWN'],
};

/** type -> the status object its codes feed (null: none). */
export const STATUS_PROPERTY_OF_TYPE: Readonly<Record<HealthEventType, StatusProperty | null>> = {
  CONNECTION: 'connectionStatus',
  THROUGHPUT: 'throughputStatus',
  CLOCK_SYNC: 'clockSyncStatus',
  HARDWARE_FAULT: 'hardwareStatus',
  SOFTWARE_FAULT: 'softwareStatus',
  LIFECYCLE: null,
  UNCLASSIFIED: null,
};

/** Every code of the table. */
export const ALL_HEALTH_CODES: readonly string[] = Object.values(HEALTH_CODES).flat();

/** code -> the status object it feeds (null for REBOOT, VERSION_UPDATE, HEALTH_RESET, KNOWN, UNKNOWN). */
export function statusPropertyOfCode(code: string): StatusProperty | null {
  for (const [type, codes] of Object.entries(HEALTH_CODES) as [HealthEventType, readonly string[]][]) {
    if (codes.includes(code)) return STATUS_PROPERTY_OF_TYPE[type];
  }
  return null;
}

const Args = t.record(t.string, t.unknown);

// One t.type (args may be absent) rather than an intersection, so field
// errors read `events.0.type`, not `events.0.0.type`.
const HealthEventShape = t.type({ eventTime: IsoTimestamp, type: HealthEventType, code: t.string, args: t.union([Args, t.undefined]) });

/**
 * One health event as an agent sends it: `code` must be one of its type's
 * codes (the failure names them, at `code`). `args` defaults to {}.
 */
export const AgentHealthEvent = new t.Type<
  { eventTime: string; type: HealthEventType; code: string; args: Record<string, unknown> },
  { eventTime: string; type: HealthEventType; code: string; args: Record<string, unknown> },
  unknown
>(
  'HealthEvent',
  (u): u is { eventTime: string; type: HealthEventType; code: string; args: Record<string, unknown> } =>
    HealthEventShape.is(u) && HEALTH_CODES[u.type].includes(u.code) && (u as { args?: unknown }).args !== undefined,
  (u, c) => {
    const shape = HealthEventShape.validate(u, c);
    if (shape._tag === 'Left') return shape;
    const e = shape.right;
    const allowed = HEALTH_CODES[e.type];
    if (!allowed.includes(e.code)) {
      return t.failure(e.code, [...c, { key: 'code', type: t.string, actual: e.code }], failureReason(
        'health code',
        `must be one of ${allowed.join(', ')} for type ${e.type}`,
        e.code,
      ));
    }
    return t.success({ eventTime: e.eventTime, type: e.type, code: e.code, args: e.args ?? {} });
  },
  t.identity,
);
export type AgentHealthEvent = t.TypeOf<typeof AgentHealthEvent>;

/** `POST /agent/v1/readers/{readerName}/health` body. */
export const HealthEventsBody = t.type({ events: t.array(AgentHealthEvent) }, 'HealthEvents');
export type HealthEventsBody = t.TypeOf<typeof HealthEventsBody>;

/** The data of a stored `HealthEventReported`: the interface's health event. */
export const HealthEventData = t.type(
  {
    readerName: t.string,
    eventTime: IsoTimestamp,
    type: HealthEventType,
    code: t.string,
    args: Args,
  },
  'HealthEventData',
);
export type HealthEventData = t.TypeOf<typeof HealthEventData>;
