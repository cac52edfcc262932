// JSON Schemas of the reader definition request bodies, for the OpenAPI
// document (the io-ts codecs in codec.ts and features.ts are what decides).
import { nameSchema } from '../core/codecs';
import { READER_TYPES } from './reader-types';
import { FEATURE_NAMES } from './features';
import { connectionBodySchema, IOT_DELIVERIES } from './connection';

const nullableString = { type: 'string', nullable: true };

export const readerDefinitionBodySchema: Record<string, unknown> = {
  type: 'object',
  required: ['name'],
  properties: {
    name: nameSchema(),
    address: { ...nullableString, description: 'reader host name' },
    groups: { type: 'array', items: { type: 'string' }, nullable: true, description: 'reader group names; default []' },
    type: { type: 'string', enum: [...READER_TYPES, null], nullable: true },
    placement: {
      type: 'object',
      nullable: true,
      properties: {
        x: { type: 'number' },
        y: { type: 'number' },
        z: { type: 'number' },
        yaw: { type: 'number' },
        pitch: { type: 'number' },
        roll: { type: 'number' },
        floor: { oneOf: [{ type: 'string', nullable: true }, { type: 'number' }], description: 'returned as sent (number or string); 1 and "1" are the same floor' },
      },
    },
    facility: { ...nullableString, description: 'required when several facilities exist' },
    readerZone: { ...nullableString, minLength: 1 },
    antennaZones: {
      type: 'object',
      nullable: true,
      additionalProperties: { type: 'string', minLength: 1 },
      description: 'antenna id (1-52, 1001-1052, 2001-2052, as a decimal string) -> zone name',
    },
    labels: { type: 'array', items: { type: 'string' }, nullable: true },
    connection: connectionBodySchema,
  },
};

/** A feature's status (FeatureStatus in features.ts); `message` only after a failure. */
export const featureStatusSchema: Record<string, unknown> = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'statusLastUpdated', 'requestStatus', 'requestStatusLastUpdated', 'requestTargetStatus'],
  properties: {
    status: { type: 'string', enum: ['ENABLED', 'DISABLED'] },
    statusLastUpdated: nullableString,
    requestStatus: { type: 'string', enum: ['IDLE', 'INITIALIZING', 'CONFIGURING', 'ERROR'] },
    requestStatusLastUpdated: nullableString,
    requestTargetStatus: { type: 'string', enum: ['ENABLED', 'DISABLED', null], nullable: true },
    message: { type: 'string' },
  },
};

/** Feature name -> status, for the features of a reader that have one. */
export const featureStatesSchema: Record<string, unknown> = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(FEATURE_NAMES.map((f) => [f, featureStatusSchema])),
};

export const featureChangeBodySchema: Record<string, unknown> = {
  type: 'object',
  required: ['feature', 'action'],
  properties: {
    feature: { type: 'string', enum: [...FEATURE_NAMES] },
    action: { type: 'string', enum: ['ENABLE', 'DISABLE'] },
  },
};

const number = { type: 'number' };

/** A reader definition as returned: every field present, null where unset. */
export const readerDefinitionResponseSchema: Record<string, unknown> = {
  type: 'object',
  required: ['name', 'agentIdentifier', 'address', 'groups', 'type', 'placement', 'facility', 'features', 'labels', 'readerZone', 'antennaZones', 'connection'],
  additionalProperties: false,
  properties: {
    name: { type: 'string' },
    agentIdentifier: { type: 'string' },
    address: nullableString,
    groups: { type: 'array', items: { type: 'string' } },
    type: { type: 'string', enum: [...READER_TYPES, null], nullable: true },
    placement: {
      type: 'object',
      nullable: true,
      required: ['x', 'y', 'z', 'yaw', 'pitch', 'roll', 'floor'],
      additionalProperties: false,
      properties: {
        x: number, y: number, z: number, yaw: number, pitch: number, roll: number,
        floor: { oneOf: [{ type: 'string', nullable: true }, { type: 'number' }], description: 'as sent' },
      },
    },
    facility: { type: 'string' },
    features: {
      type: 'object',
      description: 'feature name -> its status, for the features the reader has a status for',
      additionalProperties: featureStatusSchema,
    },
    labels: { type: 'array', items: { type: 'string' }, nullable: true },
    readerZone: nullableString,
    antennaZones: { type: 'object', nullable: true, additionalProperties: { type: 'string' } },
    connection: {
      type: 'object',
      nullable: true,
      required: ['protocol'],
      additionalProperties: false,
      description: 'null: the agent API; never the IOT password, only whether one is set',
      properties: {
        protocol: { type: 'string', enum: ['AGENT', 'LLRP', 'IOT'] },
        port: { type: 'integer', nullable: true },
        tls: { type: 'boolean', description: 'LLRP' },
        caCertificate: { type: 'string', nullable: true, description: 'LLRP' },
        certificateSha256: { type: 'string', nullable: true, description: 'LLRP' },
        scheme: { type: 'string', enum: ['https', 'http'] },
        username: { type: 'string' },
        passwordSet: { type: 'boolean' },
        delivery: { type: 'string', enum: [...IOT_DELIVERIES] },
      },
    },
  },
};
