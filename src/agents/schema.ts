// JSON Schemas of the agent API bodies and answers, for the OpenAPI document.
import { READER_COMMAND_TYPES } from './commands';
import { FEATURE_NAMES } from '../readerdefinitions';
const iso = { type: 'string', format: 'date-time' };
const hex = { type: 'string', pattern: '^[0-9A-Fa-f]+$' };

export const checkinSchema = {
  type: 'object',
  required: ['agentId', 'versions', 'state'],
  properties: {
    agentId: { type: 'string', minLength: 1 },
    versions: {
      type: 'object',
      required: ['App', 'Firmware'],
      properties: { App: { type: 'string' }, Firmware: { type: 'string' } },
      additionalProperties: { type: 'string' },
      example: { App: '1.4.2', Firmware: '7.6.1' },
    },
    state: { type: 'string', enum: ['IDLE', 'RUNNING_JOB', 'UPDATING_FIRMWARE', 'ERROR'] },
    features: { type: 'object', properties: { ANTENNA_HUB: { type: 'string', enum: ['ENABLED', 'DISABLED'] } } },
    temperatureCelsius: { type: 'number', description: 'the reader\'s own temperature in degrees Celsius, when it reports one (reader health `temperature`)' },
  },
};

export const tagReportSchema = {
  type: 'object',
  required: ['reportId', 'jobId', 'from', 'to', 'observations'],
  properties: {
    reportId: { type: 'string', format: 'uuid' },
    jobId: { type: 'string' },
    from: iso,
    to: iso,
    observations: {
      type: 'array',
      items: {
        type: 'object',
        required: ['epc', 'antennaId', 'peakRssi', 'readCount', 'firstSeen', 'lastSeen'],
        properties: {
          epc: hex,
          tid: { ...hex, nullable: true },
          antennaId: { type: 'integer', description: '1-52, or polarized 1001-1052 / 2001-2052' },
          peakRssi: { type: 'number' },
          readCount: { type: 'integer', minimum: 1 },
          firstSeen: iso,
          lastSeen: iso,
          x: { type: 'number', nullable: true },
          y: { type: 'number', nullable: true },
        },
      },
    },
  },
};

export const healthEventsSchema = {
  type: 'object',
  required: ['events'],
  properties: {
    events: {
      type: 'array',
      items: {
        type: 'object',
        required: ['eventTime', 'type', 'code'],
        properties: {
          eventTime: iso,
          type: { type: 'string', enum: ['CONNECTION', 'THROUGHPUT', 'CLOCK_SYNC', 'HARDWARE_FAULT', 'SOFTWARE_FAULT', 'LIFECYCLE', 'UNCLASSIFIED'] },
          code: { type: 'string' },
          args: { type: 'object' },
        },
      },
    },
  },
};

export const featureProgressSchema = {
  type: 'object',
  required: ['progress'],
  properties: {
    progress: { type: 'string', enum: ['TAKEN', 'COMPLETED', 'FAILED'] },
    status: { type: 'string', enum: ['ENABLED', 'DISABLED'], description: 'read with COMPLETED only' },
    message: { type: 'string', description: 'read with FAILED only' },
  },
};

export const commandResultSchema = {
  type: 'object',
  required: ['result'],
  properties: {
    result: { type: 'string', enum: ['DONE', 'FAILED'] },
    message: { type: 'string' },
  },
};

// The answers (./gateway.ts, ./slice.ts).

const object = (properties: Record<string, unknown>): Record<string, unknown> => ({ type: 'object', additionalProperties: false, required: Object.keys(properties), properties });

export const secretAnswerSchema = object({ readerName: { type: 'string' }, secret: { type: 'string', description: 'returned only here; stored as a digest' } });

export const reportStatsSchema = object({
  readers: {
    type: 'array',
    items: object({
      readerName: { type: 'string' },
      acceptedReports: { type: 'integer', minimum: 0 },
      refusedReports: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 }, description: 'count per refusal reason (NOT_ASSIGNED, OTHER_JOB, NOT_ACKNOWLEDGED)' },
    }),
  },
});

const document = (of: string): Record<string, unknown> => ({ type: 'object', additionalProperties: true, description: `the ${of} as its own route returns it` });

export const checkinAnswerSchema = object({
  checkinIntervalSeconds: { type: 'number', exclusiveMinimum: true, minimum: 0 },
  assignment: {
    ...object({
      jobId: { type: 'string' },
      facility: { type: 'string' },
      status: { type: 'string', enum: ['STARTING', 'RUNNING'] },
      acknowledged: { type: 'boolean' },
      recipe: document('recipe'),
      readerConfiguration: document('reader configuration'),
      readerDefinition: document('reader definition'),
    }),
    nullable: true,
    description: 'the job the reader is in (STARTING or RUNNING); null when none',
  },
  featureChanges: { type: 'array', items: object({ feature: { type: 'string', enum: [...FEATURE_NAMES] }, target: { type: 'string', enum: ['ENABLED', 'DISABLED'] } }) },
  commands: { type: 'array', items: object({ id: { type: 'string' }, type: { type: 'string', enum: [...READER_COMMAND_TYPES] }, args: { type: 'object', additionalProperties: true } }) },
});

export const reportAnswerSchema = object({ reportId: { type: 'string' }, duplicate: { type: 'boolean', description: 'true when this reportId was already stored (nothing stored again)' } });
