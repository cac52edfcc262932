// JSON Schema (OpenAPI 3.0 dialect) of the reader configuration request
// body. The io-ts codec (codec.ts) and the rules (rules.ts, validate.ts) are
// what is enforced; this documents them.
import { nameSchema } from '../core/codecs';
import { REPORT_CONFIG_FLAGS } from './model';

const READER_MODES = [
  'MAX_THROUGHPUT',
  'HYBRID',
  'DENSE_READER_M4',
  'DENSE_READER_M8',
  'MAX_MILLER',
  'DENSE_READER_M4_TWO',
  'AUTOSET_DENSE_READER',
  'MODE_1002',
  'MODE_1003',
  'MODE_1004',
];
const SEARCH_MODES = ['READER_SELECTED', 'SINGLE_TARGET', 'DUAL_TARGET', 'TAG_FOCUS', 'SINGLE_TARGET_BTOA', 'DUAL_TARGET_WITH_BTOASELECT'];
const antennaIds = (description: string) => ({
  type: 'array',
  nullable: true,
  items: { type: 'integer' },
  description,
});

const filter = {
  type: 'object',
  nullable: true,
  required: ['tagMask'],
  properties: {
    tagMask: { type: 'string', pattern: '^[0-9A-Fa-f]+$', description: 'hexadecimal value to filter on' },
    memoryBank: { type: 'integer', enum: [0, 1, 2, 3, null], default: 1, nullable: true, description: '0 Reserved, 1 EPC, 2 TID, 3 User' },
    pointer: { type: 'integer', minimum: 0, default: 32, nullable: true, description: 'start bit in memory' },
  },
};

const details = {
  type: 'object',
  nullable: true,
  description:
    'required for every operation but DO_NOTHING (for which it is ignored); fields not taken by the operation are refused',
  required: ['readerMode', 'session'],
  properties: {
    readerMode: { type: 'string', enum: READER_MODES },
    session: { type: 'integer', enum: [0, 1, 2, 3], description: '2 or 3 for LOCATION' },
    searchMode: { type: 'string', enum: [...SEARCH_MODES, null], nullable: true, description: 'required for INVENTORY; optional for THRESHOLD; refused otherwise' },
    filter,
    tagPopulationEstimate: { type: 'integer', minimum: 1, nullable: true, description: 'INVENTORY, THRESHOLD' },
    transmitPowerInDbm: { type: 'number', nullable: true, description: 'dBm per selected antenna port' },
    polarization: { type: 'boolean', nullable: true, description: 'INVENTORY, THRESHOLD; allows antenna ids 1001-1052 and 2001-2052' },
    antennas: antennaIds('INVENTORY only; at least one id; 1-52 (1001-1052, 2001-2052 with polarization); omit for every antenna'),
    disabledAntennas: antennaIds('LOCATION only; 1-52'),
    channelConfig: {
      type: 'object',
      nullable: true,
      description: 'INVENTORY, THRESHOLD; needs channelIndex or txFrequenciesInMhz',
      properties: {
        channelIndex: { type: 'integer', minimum: 1, nullable: true },
        txFrequenciesInMhz: { type: 'array', items: { type: 'number', exclusiveMinimum: true, minimum: 0 }, minItems: 1, nullable: true },
      },
    },
    reportConfig: {
      type: 'object',
      nullable: true,
      description: 'NORMAL (deprecated) only',
      properties: Object.fromEntries(REPORT_CONFIG_FLAGS.map((f) => [f, { type: 'boolean', nullable: true }])),
    },
  },
};

export const readerConfigurationBodySchema: Record<string, unknown> = {
  type: 'object',
  required: ['name', 'operation'],
  properties: {
    name: nameSchema(),
    operation: {
      type: 'string',
      enum: ['INVENTORY', 'LOCATION', 'THRESHOLD', 'DO_NOTHING', 'NORMAL'],
      description: 'DO_NOTHING disables the reader; NORMAL is deprecated',
    },
    configuration: details,
  },
};

/**
 * A reader configuration as returned: every field of its operation present
 * (null when unset), those of other operations left out; `{}` for DO_NOTHING.
 */
export const readerConfigurationResponseSchema: Record<string, unknown> = {
  type: 'object',
  required: ['name', 'operation', 'configuration'],
  additionalProperties: false,
  properties: {
    name: { type: 'string' },
    operation: (readerConfigurationBodySchema['properties'] as Record<string, unknown>)['operation'],
    configuration: { type: 'object', additionalProperties: false, properties: details.properties },
  },
};
