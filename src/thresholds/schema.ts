// JSON Schema (OpenAPI 3.0 dialect) of the antenna configuration and
// threshold bodies. The io-ts codecs are what is enforced; this documents them.
import { nameSchema } from '../core/codecs';
import { READER_TYPES } from '../readerdefinitions';

const antennaList = (what: string) => ({
  type: 'array',
  nullable: true,
  description: `${what}; default []. An antenna appears at most once over in, out and ignored`,
  items: { type: 'object', required: ['antennaId'], properties: { antennaId: { type: 'integer', description: '1-52, 1001-1052 or 2001-2052' } } },
});

export const antennaConfigurationBodySchema: Record<string, unknown> = {
  type: 'object',
  required: ['name', 'side', 'readerType', 'readerArrangement'],
  properties: {
    id: { type: 'integer', nullable: true, description: 'ignored on create (the service assigns ids); on replace, if given, must equal the id of the path' },
    name: nameSchema('need not be unique'),
    side: { type: 'string', enum: ['LEFT', 'RIGHT'] },
    readerType: { type: 'string', enum: [...READER_TYPES] },
    readerArrangement: { type: 'string', enum: ['SIDE_BY_SIDE', 'OVERHEAD', 'OVERHEAD_OFFSET', 'CUSTOM'] },
    in: antennaList('antennas on the inbound side'),
    out: antennaList('antennas on the outbound side'),
    ignored: antennaList('antennas whose reads are ignored'),
  },
};

export const thresholdBodySchema: Record<string, unknown> = {
  type: 'object',
  required: ['name', 'readerArrangement'],
  properties: {
    id: { type: 'integer', minimum: 1, nullable: true, description: 'ignored by create; createOrReplace replaces (or creates) this id, or assigns a new id when absent' },
    name: nameSchema(),
    facility: { type: 'string', nullable: true, description: 'may be omitted while only one facility exists' },
    readerArrangement: { type: 'string', enum: ['SIDE_BY_SIDE', 'OVERHEAD', 'OVERHEAD_OFFSET', 'CUSTOM'] },
    readers: {
      type: 'object',
      nullable: true,
      description: 'reader definition name (a reader of the same facility) -> {antennaConfigurationId}; default {}',
      additionalProperties: { type: 'object', required: ['antennaConfigurationId'], properties: { antennaConfigurationId: { type: 'integer' } } },
    },
  },
};

const ARRANGEMENTS = ['SIDE_BY_SIDE', 'OVERHEAD', 'OVERHEAD_OFFSET', 'CUSTOM'];
const antennaRefs = { type: 'array', items: { type: 'object', required: ['antennaId'], properties: { antennaId: { type: 'integer' } }, additionalProperties: false } };

/** An antenna configuration as returned. */
export const antennaConfigurationResponseSchema: Record<string, unknown> = {
  type: 'object',
  required: ['id', 'name', 'side', 'readerType', 'readerArrangement', 'in', 'out', 'ignored'],
  additionalProperties: false,
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    side: { type: 'string', enum: ['LEFT', 'RIGHT'] },
    readerType: { type: 'string', enum: [...READER_TYPES] },
    readerArrangement: { type: 'string', enum: ARRANGEMENTS },
    in: antennaRefs,
    out: antennaRefs,
    ignored: antennaRefs,
  },
};

/** A threshold as returned; `antennaConfiguration` only with `embed=antennaConfiguration`. */
export const thresholdResponseSchema: Record<string, unknown> = {
  type: 'object',
  required: ['id', 'name', 'facility', 'readerArrangement', 'readers'],
  additionalProperties: false,
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    facility: { type: 'string' },
    readerArrangement: { type: 'string', enum: ARRANGEMENTS },
    readers: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['antennaConfigurationId'],
        additionalProperties: false,
        properties: {
          antennaConfigurationId: { type: 'integer' },
          antennaConfiguration: { ...antennaConfigurationResponseSchema, nullable: true, description: 'with embed=antennaConfiguration; null if it no longer exists' },
        },
      },
    },
  },
};
