// JSON Schemas of the reader definition request bodies, for the OpenAPI
// document (the io-ts codecs in codec.ts and features.ts are what decides).
import { nameSchema } from '../core/codecs';
import { READER_TYPES } from './reader-types';
import { FEATURE_NAMES } from './features';
import { connectionBodySchema } from './connection';

const nullableString = { type: 'string', nullable: true };

export const readerDefinitionBodySchema: Record<string, unknown> = {
  type: 'object',
  required: ['name'],
  properties: {
    name: nameSchema(),
    address: { ...nullableString, description: 'reader host name' },
    groups: { type: 'array', items: { type: 'string' }, nullable: true, description: 'reader group names; default []' },
    type: { type: 'string', enum: [...READER_TYPES], nullable: true },
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
        floor: { oneOf: [{ type: 'string' }, { type: 'number' }], nullable: true, description: 'stored and returned as a string' },
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

export const featureChangeBodySchema: Record<string, unknown> = {
  type: 'object',
  required: ['feature', 'action'],
  properties: {
    feature: { type: 'string', enum: [...FEATURE_NAMES] },
    action: { type: 'string', enum: ['ENABLE', 'DISABLE'] },
  },
};
