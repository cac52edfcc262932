// JSON Schemas (OpenAPI 3.0) of the support answers (configuration archive,
// restore, factory reset, item reset, iteration data), so the OpenAPI
// document states their shape and tests check it.
import { ARCHIVE_FORMAT, ARCHIVE_VERSION } from './config-archive';

const TIME = { type: 'string', format: 'date-time' };
const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
  ...extra,
});

export const CONFIGURATION_ARCHIVE_SCHEMA = obj({
  format: { type: 'string', enum: [ARCHIVE_FORMAT] },
  version: { type: 'integer', enum: [ARCHIVE_VERSION] },
  exportedAt: TIME,
  streams: {
    type: 'array',
    items: obj({
      stream: { type: 'string' },
      events: { type: 'array', items: obj({ id: { type: 'string' }, type: { type: 'string' }, data: {}, metadata: {} }) },
    }),
  },
});

export const RESTORED_SCHEMA = obj({
  streams: { type: 'integer', minimum: 0, description: 'streams restored' },
  events: { type: 'integer', minimum: 0, description: 'events restored' },
});

export const FACTORY_RESET_SCHEMA = obj({ deletedStreams: { type: 'integer', minimum: 0 }, at: TIME });

export const ITEM_RESET_SCHEMA = obj({
  requestId: { type: 'string', description: 'id of the recorded reset request' },
  facility: { type: 'string' },
  clearHistory: { type: 'boolean' },
  at: TIME,
});

const nullableNumber = { type: 'number', nullable: true };

/** A threshold decision with its evidence (the engine's iteration record, times as ISO text). */
export const ITERATIONS_SCHEMA = obj({
  iterations: {
    type: 'array',
    items: {
      type: 'object',
      required: ['jobId', 'thresholdId', 'epc', 'time', 'outcome', 'destination', 'confidence', 'readsIn', 'readsOut', 'weightIn', 'weightOut', 'firstRead', 'lastRead'],
      properties: {
        jobId: { type: 'string' },
        thresholdId: { type: 'integer' },
        epc: { type: 'string' },
        time: TIME,
        outcome: { type: 'string', description: 'TRANSITION, or why there was none' },
        destination: { type: 'string', enum: ['IN', 'OUT', null], nullable: true },
        confidence: nullableNumber,
        readsIn: { type: 'integer' },
        readsOut: { type: 'integer' },
        weightIn: { type: 'number' },
        weightOut: { type: 'number' },
        firstRead: TIME,
        lastRead: TIME,
      },
    },
  },
});
