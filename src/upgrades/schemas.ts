// JSON Schemas (OpenAPI 3.0) of the upgrade answers: the stored request
// (./codec.ts), the list entries (./listing.ts) and the status object
// (./view.ts), so the OpenAPI document states their shape and tests check it.
import { READER_TYPES } from '../readerdefinitions';
import { UPGRADE_STATUSES } from './codec';

const VERSION_IDENTIFIER = {
  type: 'object',
  additionalProperties: false,
  required: ['version', 'imageType'],
  properties: { version: { type: 'string' }, imageType: { type: 'string', enum: ['FIRMWARE_READER', 'CAP_SERVICE'] } },
};
const READER_TYPE = { type: 'string', enum: [...READER_TYPES] };
const TIME = { type: 'string', format: 'date-time' };
const STATUS = { type: 'string', enum: [...UPGRADE_STATUSES] };

export const UPGRADE_START_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['upgradeInstanceId'],
  properties: { upgradeInstanceId: { type: 'string', description: 'id for stop and show' } },
};

const TARGET = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'values'],
  properties: { type: { type: 'string', enum: ['DEVICE', 'FACILITY'] }, values: { type: 'array', items: { type: 'string' } } },
};

/** The request as stored: the policy's defaults filled in. */
const UPGRADE_REQUEST = {
  type: 'object',
  additionalProperties: false,
  required: ['target', 'versionIdentifier', 'policy'],
  properties: {
    target: TARGET,
    versionIdentifier: VERSION_IDENTIFIER,
    policy: {
      type: 'object',
      additionalProperties: false,
      required: ['maxParallelReaders', 'allowedReaderTypes'],
      properties: { maxParallelReaders: { type: 'integer', minimum: 1 }, allowedReaderTypes: { type: 'array', items: READER_TYPE } },
    },
  },
};

export const UPGRADE_LIST_SCHEMA = {
  type: 'array',
  items: { type: 'object', additionalProperties: false, required: ['id', 'upgradeRequest'], properties: { id: { type: 'string' }, upgradeRequest: UPGRADE_REQUEST } },
};

export const UPGRADE_STATUS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'version', 'status', 'target', 'details', 'elapsedTimeSeconds', 'lastUpdatedTime'],
  properties: {
    id: { type: 'string' },
    version: VERSION_IDENTIFIER,
    status: STATUS,
    target: TARGET,
    details: {
      type: 'object',
      additionalProperties: false,
      required: ['readers', 'skippedReaders', 'failedReaders'],
      properties: {
        readers: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'previousVersion', 'status', 'elapsedTimeSeconds', 'lastUpdatedTime'],
            properties: {
              name: { type: 'string' },
              previousVersion: { ...VERSION_IDENTIFIER, nullable: true, description: 'null when the agent never reported its versions' },
              status: STATUS,
              elapsedTimeSeconds: { type: 'integer', minimum: 0 },
              lastUpdatedTime: TIME,
            },
          },
        },
        skippedReaders: {
          type: 'array',
          description: 'readers of the target the policy left out, and why',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'readerType', 'reason'],
            properties: { name: { type: 'string' }, readerType: { ...READER_TYPE, nullable: true }, reason: { type: 'string' } },
          },
        },
        failedReaders: {
          type: 'array',
          description: 'why each FAILED reader failed',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'reason'],
            properties: { name: { type: 'string' }, reason: { type: 'string', nullable: true } },
          },
        },
      },
    },
    elapsedTimeSeconds: { type: 'integer', minimum: 0 },
    lastUpdatedTime: TIME,
  },
};
