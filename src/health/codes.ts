// The interface's health code table: every health event type and code, which
// reader status object a code feeds, and how bad it is (our decision; the
// interface only names the codes). Shared by the agent gateway (validating
// reported events) and by the health derivation (src/health/status.ts).
import * as t from 'io-ts';

export const HEALTH_EVENT_TYPES = ['CONNECTION', 'THROUGHPUT', 'CLOCK_SYNC', 'HARDWARE_FAULT', 'SOFTWARE_FAULT', 'LIFECYCLE', 'UNCLASSIFIED'] as const;
export type HealthEventType = (typeof HEALTH_EVENT_TYPES)[number];

/** The five status objects of a reader health. */
export const STATUS_CATEGORIES = ['connectionStatus', 'throughputStatus', 'clockSyncStatus', 'hardwareStatus', 'softwareStatus'] as const;
export type StatusCategory = (typeof STATUS_CATEGORIES)[number];

export type Severity = 'WARNING' | 'FAILED';

export interface StatusCode {
  readonly type: HealthEventType;
  readonly category: StatusCategory;
  readonly severity: Severity;
}

/**
 * Codes that set a status object. WARNING: transient, the reader still works
 * (a retry, a full buffer, an unsynchronised clock). FAILED: the reader or
 * agent cannot do its work until someone acts.
 */
export const STATUS_CODES = {
  BAD_CERTIFICATE: { type: 'CONNECTION', category: 'connectionStatus', severity: 'FAILED' },
  HTTP_FAILURE: { type: 'CONNECTION', category: 'connectionStatus', severity: 'WARNING' },
  NETWORK: { type: 'CONNECTION', category: 'connectionStatus', severity: 'WARNING' },
  DROPPED_READ: { type: 'THROUGHPUT', category: 'throughputStatus', severity: 'WARNING' },
  REPORT_BUFFER: { type: 'THROUGHPUT', category: 'throughputStatus', severity: 'WARNING' },
  TAG_POPULATION_OVERFLOW: { type: 'THROUGHPUT', category: 'throughputStatus', severity: 'WARNING' },
  NTP: { type: 'CLOCK_SYNC', category: 'clockSyncStatus', severity: 'WARNING' },
  READER_COMMAND: { type: 'HARDWARE_FAULT', category: 'hardwareStatus', severity: 'WARNING' },
  READER_EXCEPTION: { type: 'HARDWARE_FAULT', category: 'hardwareStatus', severity: 'WARNING' },
  READER_RESTART: { type: 'HARDWARE_FAULT', category: 'hardwareStatus', severity: 'FAILED' },
  UPGRADE_STATUS: { type: 'HARDWARE_FAULT', category: 'hardwareStatus', severity: 'FAILED' },
  CHECKSUM: { type: 'SOFTWARE_FAULT', category: 'softwareStatus', severity: 'FAILED' },
  COMMAND_NOT_FOUND: { type: 'SOFTWARE_FAULT', category: 'softwareStatus', severity: 'WARNING' },
  CONFIG_SERVICE_SET: { type: 'SOFTWARE_FAULT', category: 'softwareStatus', severity: 'FAILED' },
  EXTERNAL_COMMAND: { type: 'SOFTWARE_FAULT', category: 'softwareStatus', severity: 'FAILED' },
  FILE_SYSTEM: { type: 'SOFTWARE_FAULT', category: 'softwareStatus', severity: 'FAILED' },
  INVALID_SET_VARIABLE: { type: 'SOFTWARE_FAULT', category: 'softwareStatus', severity: 'WARNING' },
  UNMARSHAL: { type: 'SOFTWARE_FAULT', category: 'softwareStatus', severity: 'WARNING' },
  LLRP: { type: 'SOFTWARE_FAULT', category: 'softwareStatus', severity: 'FAILED' },
  PROVISIONING: { type: 'SOFTWARE_FAULT', category: 'softwareStatus', severity: 'FAILED' },
  READER_CONNECTION: { type: 'SOFTWARE_FAULT', category: 'softwareStatus', severity: 'FAILED' },
  CRASH: { type: 'SOFTWARE_FAULT', category: 'softwareStatus', severity: 'FAILED' },
} as const satisfies Record<string, StatusCode>;
export type StatusCodeName = keyof typeof STATUS_CODES;

/** Codes that never set a status object, with the one type each comes with. */
export const OTHER_CODES = {
  REBOOT: 'LIFECYCLE',
  VERSION_UPDATE: 'LIFECYCLE',
  HEALTH_RESET: 'LIFECYCLE',
  KNOWN: 'UNCLASSIFIED',
  UNKNOWN: 'UNCLASSIFIED',
} as const satisfies Record<string, HealthEventType>;

/**
 * Codes of the events tagtrail itself records when a reader stops or resumes
 * checking in (ReaderNotResponding / ReaderResponding); they are searchable
 * like reported events, as type LIFECYCLE.
 */
export const RESPONSIVENESS_CODES = { NOT_RESPONDING: 'LIFECYCLE', RESPONDING: 'LIFECYCLE' } as const;

/** Every code an agent may report. */
export const REPORTABLE_CODES = [...Object.keys(STATUS_CODES), ...Object.keys(OTHER_CODES)] as readonly string[];
/** Every code a health event search may name. */
export const SEARCHABLE_CODES = [...REPORTABLE_CODES, ...Object.keys(RESPONSIVENESS_CODES)] as readonly string[];

export const isStatusCode = (code: string): code is StatusCodeName => Object.prototype.hasOwnProperty.call(STATUS_CODES, code);

/** Whether an agent may report `code` with `type`: each code belongs to the type of its row. */
export function codeFitsType(type: HealthEventType, code: string): boolean {
  if (isStatusCode(code)) return STATUS_CODES[code].type === type;
  if (Object.prototype.hasOwnProperty.call(OTHER_CODES, code)) return OTHER_CODES[code as keyof typeof OTHER_CODES] === type;
  return false;
}

const keyof = <K extends string>(values: readonly K[], name: string): t.Type<K, K, unknown> =>
  t.keyof(Object.fromEntries(values.map((v) => [v, null])) as Record<K, null>, name);

export const HealthEventTypeCodec = keyof(HEALTH_EVENT_TYPES, 'HealthEventType');
export const SearchableCodeCodec = keyof(SEARCHABLE_CODES, 'HealthCode');
