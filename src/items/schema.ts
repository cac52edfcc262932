// JSON Schemas (OpenAPI 3.0 dialect) of the item data answers: what the
// contract tests check every answer against.
const nullableString = { type: 'string', nullable: true };
const nullableNumber = { type: 'number', nullable: true };

export const itemSchema: Record<string, unknown> = {
  type: 'object',
  required: ['epc', 'tagId', 'jobId', 'xLocation', 'yLocation', 'zLocation', 'zone', 'floor', 'facility', 'presenceConfidence', 'lastModifiedTime'],
  additionalProperties: false,
  properties: {
    epc: { type: 'string' },
    tagId: { type: 'string' },
    jobId: { type: 'string' },
    xLocation: nullableNumber,
    yLocation: nullableNumber,
    zLocation: { ...nullableNumber, description: '0 while the item has coordinates, null with them' },
    zone: { type: 'string', description: 'FACILITY outside every zone, ABSENT once expired' },
    floor: nullableString,
    facility: { ...nullableString, description: 'kept when the item goes ABSENT: it went missing there' },
    presenceConfidence: { type: 'string', enum: ['HIGH'] },
    lastModifiedTime: { type: 'string', format: 'date-time' },
  },
};

export const itemEventSchema: Record<string, unknown> = {
  type: 'object',
  required: ['epc', 'tagId', 'fromZone', 'toZone', 'fromFloor', 'toFloor', 'fromFacility', 'toFacility', 'fromX', 'toX', 'fromY', 'toY', 'observationTime'],
  additionalProperties: false,
  properties: {
    epc: { type: 'string' },
    tagId: { type: 'string' },
    fromZone: { type: 'string', description: 'ABSENT for a first sighting' },
    toZone: { type: 'string', description: 'ABSENT for an exit' },
    fromFloor: nullableString,
    toFloor: nullableString,
    fromFacility: { ...nullableString, description: 'null for a first sighting' },
    toFacility: { ...nullableString, description: 'null for an exit (to ABSENT)' },
    fromX: nullableNumber,
    toX: nullableNumber,
    fromY: nullableNumber,
    toY: nullableNumber,
    observationTime: { type: 'string', format: 'date-time' },
  },
};

export const itemsPageSchema: Record<string, unknown> = {
  type: 'object',
  required: ['items', 'nextPageMarker'],
  additionalProperties: false,
  properties: { items: { type: 'array', items: itemSchema }, nextPageMarker: nullableString },
};

export const asOfPageSchema: Record<string, unknown> = {
  type: 'object',
  required: ['asOf', 'items', 'nextPageMarker'],
  additionalProperties: false,
  properties: { asOf: { type: 'string', format: 'date-time' }, items: { type: 'array', items: itemSchema }, nextPageMarker: nullableString },
};

export const historyPageSchema: Record<string, unknown> = {
  type: 'object',
  required: ['history', 'nextPageMarker', 'moreHistoryAvailable'],
  additionalProperties: false,
  properties: { history: { type: 'array', items: itemEventSchema }, nextPageMarker: nullableString, moreHistoryAvailable: { type: 'boolean' } },
};

/** A threshold transition record (src/items/transition-model.ts). */
export const transitionSchema: Record<string, unknown> = {
  type: 'object',
  required: ['thresholdId', 'thresholdName', 'epc', 'jobId', 'transitionId', 'destination', 'confidence', 'creationTime'],
  additionalProperties: false,
  properties: {
    thresholdId: { type: 'integer' },
    thresholdName: { type: 'string' },
    epc: { type: 'string' },
    jobId: { type: 'string' },
    transitionId: { type: 'string' },
    destination: { type: 'string', enum: ['IN', 'OUT'] },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
    creationTime: { type: 'string', format: 'date-time', description: 'when the tag crossed' },
  },
};

export const transitionsPageSchema: Record<string, unknown> = {
  type: 'object',
  required: ['transitions', 'nextPageMarker', 'moreTransitionsAvailable'],
  additionalProperties: false,
  properties: { transitions: { type: 'array', items: transitionSchema }, nextPageMarker: nullableString, moreTransitionsAvailable: { type: 'boolean' } },
};
