// JSON Schema (OpenAPI 3.0 dialect) of the recipe request body. The io-ts
// codec (codec.ts) and the rules (fields.ts, timing.ts, references.ts) are
// what is enforced; this documents them. Fields not taken by the recipe's
// type are refused with a 400 naming them.
import { nameSchema } from '../core/codecs';
import { REPORTING_INTERVALS } from './model';

// OpenAPI 3.0 takes `nullable` only beside a `type`, so null is allowed in
// the string branch (one branch, so oneOf still matches exactly one).
const duration = (description: string, dflt?: string) => ({
  oneOf: [{ type: 'string', nullable: true, description: 'ISO 8601 duration, e.g. PT5M' }, { type: 'number', minimum: 0, description: 'seconds' }],
  ...(dflt === undefined ? {} : { default: dflt }),
  description,
});
const num = (description: string) => ({ type: 'number', minimum: 0, nullable: true, description });

export const recipeBodySchema: Record<string, unknown> = {
  type: 'object',
  required: ['name', 'type'],
  properties: {
    name: nameSchema(),
    type: { type: 'string', enum: ['LOCATION', 'INVENTORY', 'THRESHOLD', 'LLRP'], description: 'LLRP is deprecated' },
    readerConfigurationName: {
      type: 'string',
      nullable: true,
      description:
        'default reader configuration; its operation must be the type (LLRP: NORMAL) or DO_NOTHING. Required unless readerConfigurations maps a reader',
    },
    readerConfigurations: {
      type: 'object',
      nullable: true,
      additionalProperties: { type: 'string' },
      description: 'reader definition name -> reader configuration name; overrides the default for those readers; same operation rule',
    },
    tagHeartbeatDuration: duration('LOCATION, INVENTORY; at least PT1M', 'PT5M'),
    tagHeartbeatMinutes: { type: 'integer', minimum: 1, nullable: true, deprecated: true, description: 'LOCATION, INVENTORY; not with tagHeartbeatDuration' },
    tagExpiryDuration: duration(
      'LOCATION, INVENTORY; absent: no absence by expiry; must exceed reportingInterval; needs LOCATION configurations or INVENTORY with searchMode DUAL_TARGET',
    ),
    computeWindow: {
      type: 'integer',
      minimum: 1,
      nullable: true,
      description: 'LOCATION, INVENTORY; seconds, at least reportingInterval; default 10 (LOCATION), 20 (INVENTORY), or reportingInterval if longer',
    },
    reportingInterval: {
      type: 'integer',
      enum: [...REPORTING_INTERVALS],
      default: 5,
      nullable: true,
      description: 'LOCATION, INVENTORY; seconds; 0 (500 ms) LOCATION only; at least 3 for dense reader modes',
    },
    minimumMovementInMeters: { type: 'number', minimum: 0, multipleOf: 0.5, default: 1, nullable: true, description: 'LOCATION only' },
    thresholdIds: { type: 'array', items: { type: 'integer' }, nullable: true, description: 'THRESHOLD; empty or absent: every threshold of the facility' },
    profile: { type: 'string', nullable: true, description: 'THRESHOLD' },
    iterationDataLogEnabled: { type: 'boolean', default: false, nullable: true, description: 'THRESHOLD' },
    transitionParameters: {
      type: 'object',
      nullable: true,
      additionalProperties: false,
      description: 'THRESHOLD; how transitions are decided (docs/item-processing.md, "Threshold transitions"); absent members take their defaults',
      properties: {
        passageWindowSeconds: { type: 'number', minimum: 1, maximum: 120, default: 10 },
        quietSeconds: { type: 'number', minimum: 0.25, maximum: 30, default: 1.5 },
        settleSeconds: { type: 'number', minimum: 0.25, maximum: 60, default: 3 },
        minConfidence: { type: 'number', minimum: 0, maximum: 1, default: 0.5 },
        minBalanceShift: { type: 'number', minimum: 0.05, maximum: 2, default: 0.3 },
      },
    },
    presencePipelineEnabled: { type: 'boolean', nullable: true, description: 'LLRP' },
    locationReportingEnabled: { type: 'boolean', default: true, nullable: true, description: 'LLRP' },
    zoneModel: { type: 'string', enum: ['GEOGRAPHIC', 'GATEWAY', null], default: 'GEOGRAPHIC', nullable: true, description: 'LLRP' },
    locationUpdateIntervalInSeconds: num('LLRP'),
    historyWindowSizeInCycles: num('LLRP'),
    computeWindowSizeInCycles: num('LLRP'),
    computeWindowTimeInSeconds: num('LLRP'),
    locationAggregationModel: { type: 'string', enum: ['BY_TIME', 'BY_CYCLES', null], nullable: true, description: 'LLRP, INVENTORY (stored, no effect)' },
  },
};

const bodyProperties = recipeBodySchema['properties'] as Record<string, Record<string, unknown>>;
const { tagHeartbeatMinutes: _neverReturned, ...returnedProperties } = bodyProperties;

/** A recipe as returned: durations in canonical ISO form, tagHeartbeatMinutes never (it is stored as tagHeartbeatDuration). */
export const recipeResponseSchema: Record<string, unknown> = {
  type: 'object',
  required: ['name', 'type', 'readerConfigurations'],
  additionalProperties: false,
  properties: {
    ...returnedProperties,
    name: { type: 'string' },
    readerConfigurations: { type: 'object', additionalProperties: { type: 'string' } },
    tagHeartbeatDuration: { type: 'string', nullable: true, description: 'canonical ISO 8601 duration' },
    tagExpiryDuration: { type: 'string', nullable: true, description: 'canonical ISO 8601 duration; absent or null: no absence by expiry' },
  },
};
