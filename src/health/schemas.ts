// JSON Schemas (OpenAPI 3.0) of the reader health answers: ReaderHealth
// (./status.ts) and the event search page (projections/health/), so the
// OpenAPI document states their exact shape and tests check it.
import { HEALTH_EVENT_TYPES } from './codes';

const STATUS_OBJECT = {
  type: 'object',
  required: ['status', 'code'],
  properties: {
    status: { type: 'string', enum: ['HEALTHY', 'WARNING', 'FAILED'] },
    code: { type: 'string', nullable: true, description: 'code of the newest event of the worst severity in the window; null when HEALTHY' },
  },
};

const nullableTime = (description: string): Record<string, unknown> => ({ type: 'string', format: 'date-time', nullable: true, description });

export const READER_HEALTH_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: [
    'readerName', 'state', 'lastCheckin', 'lastReboot', 'lastRebootReason', 'version', 'temperature',
    'connectionStatus', 'throughputStatus', 'clockSyncStatus', 'hardwareStatus', 'softwareStatus',
  ],
  properties: {
    readerName: { type: 'string' },
    state: { type: 'string', enum: ['AWAITING_AGENT', 'IDLE', 'RUNNING_JOB', 'UPDATING_FIRMWARE', 'NOT_RESPONDING', 'ERROR'] },
    lastCheckin: nullableTime('null until the agent first checks in'),
    lastReboot: nullableTime('eventTime of the last REBOOT event'),
    lastRebootReason: { type: 'string', nullable: true, description: 'args.reason of the last REBOOT event' },
    version: {
      type: 'object',
      nullable: true,
      required: ['App', 'Firmware'],
      properties: { App: { type: 'string' }, Firmware: { type: 'string' } },
      description: 'as the agent last reported it; null until then',
    },
    temperature: {
      type: 'object',
      nullable: true,
      required: ['celsius', 'at'],
      properties: { celsius: { type: 'number', description: 'degrees Celsius' }, at: { type: 'string', format: 'date-time', description: 'the check-in that carried it' } },
      description: 'the reader\'s own temperature as it last reported it (check-in `temperatureCelsius`; LLRP: Impinj ImpinjReaderTemperature; IoT: GET /api/v1/system/temperature); null when it never did',
    },
    connectionStatus: STATUS_OBJECT,
    throughputStatus: STATUS_OBJECT,
    clockSyncStatus: STATUS_OBJECT,
    hardwareStatus: {
      ...STATUS_OBJECT,
      required: [...STATUS_OBJECT.required, 'devices'],
      properties: {
        ...STATUS_OBJECT.properties,
        devices: { type: 'array', items: { type: 'object', required: ['device', 'code'], properties: { device: { type: 'string' }, code: { type: 'string' } } } },
      },
    },
    softwareStatus: STATUS_OBJECT,
  },
};

export const HEALTH_EVENT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['eventTime', 'readerName', 'type', 'code', 'args'],
  properties: {
    eventTime: { type: 'string', format: 'date-time' },
    readerName: { type: 'string' },
    type: { type: 'string', enum: [...HEALTH_EVENT_TYPES] },
    code: { type: 'string' },
    args: { type: 'object', additionalProperties: true },
  },
};

export const HEALTH_EVENT_PAGE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['events', 'nextPageMarker'],
  properties: {
    events: { type: 'array', items: HEALTH_EVENT_SCHEMA },
    nextPageMarker: { type: 'string', nullable: true, description: 'send it back for the next page; null on the last page' },
  },
};
