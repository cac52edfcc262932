// JSON Schema (OpenAPI 3.0 dialect) of the zone map request body. The io-ts
// codec in codec.ts is what is enforced; this documents it.
import { nameSchema } from '../core/codecs';

const point = {
  type: 'object',
  required: ['x', 'y'],
  properties: {
    x: { type: 'number', description: 'meters from the 0.0,0.0 location of the monitored space' },
    y: { type: 'number', description: 'meters' },
    z: { type: 'number', description: 'currently always 0; defaults to 0.0 when omitted; must not be null' },
  },
};

const zone = {
  type: 'object',
  required: ['name', 'points'],
  properties: {
    name: nameSchema('not necessarily unique: same-name zones form one logical zone; FACILITY and ABSENT are reserved'),
    floor: { type: 'string', nullable: true, description: 'floor name; omitted or null means no floor' },
    points: {
      type: 'array',
      minItems: 2,
      items: point,
      description: '2 points give a rectangle (opposite corners), more a polygon listed in order around its outline',
    },
  },
};

export const zoneMapBodySchema: Record<string, unknown> = {
  type: 'object',
  required: ['name', 'zones'],
  properties: {
    name: nameSchema(),
    facility: { type: 'string', nullable: true, description: 'required when more than one facility exists' },
    zones: { type: 'array', items: zone, description: 'zones on the same floor must not overlap (touching is fine)' },
  },
};

/** The stored and returned zone map. */
export const zoneMapResponseDescription = 'zone map {name, facility, zones: [{name, floor (string or null), points: [{x, y, z}]}]}';

const storedZone = {
  type: 'object',
  required: ['name', 'floor', 'points'],
  additionalProperties: false,
  properties: {
    name: { type: 'string' },
    floor: { type: 'string', nullable: true },
    points: {
      type: 'array',
      items: { type: 'object', required: ['x', 'y', 'z'], additionalProperties: false, properties: { x: { type: 'number' }, y: { type: 'number' }, z: { type: 'number' } } },
    },
  },
};

/** A zone map as stored and returned. */
export const zoneMapResponseSchema: Record<string, unknown> = {
  type: 'object',
  required: ['name', 'facility', 'zones'],
  additionalProperties: false,
  properties: { name: { type: 'string' }, facility: { type: 'string' }, zones: { type: 'array', items: storedZone } },
};

/** The current zone map of a facility, or `{name: null, facility}` when none is selected. */
export const currentZoneMapResponseSchema: Record<string, unknown> = {
  oneOf: [
    zoneMapResponseSchema,
    {
      type: 'object',
      required: ['name', 'facility'],
      additionalProperties: false,
      properties: { name: { type: 'string', nullable: true, enum: [null] }, facility: { type: 'string' } },
    },
  ],
};
