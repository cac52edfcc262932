// JSON Schemas (OpenAPI 3.0 dialect) of the EPCIS routes, for the OpenAPI
// document. The tests validate every document against GS1's EPCIS 2.0 JSON
// schema itself; these describe what tagtrail sends.
const uriObject = { type: 'object', required: ['id'], properties: { id: { type: 'string' } } };

export const objectEventSchema = {
  type: 'object',
  required: ['type', 'eventID', 'eventTime', 'eventTimeZoneOffset', 'epcList', 'action', 'readPoint'],
  properties: {
    type: { type: 'string', enum: ['ObjectEvent'] },
    eventID: { type: 'string', description: 'urn:uuid: of the fact: the same event always has the same id' },
    eventTime: { type: 'string', format: 'date-time' },
    eventTimeZoneOffset: { type: 'string', pattern: '^[+-][0-9]{2}:[0-9]{2}$' },
    recordTime: { type: 'string', format: 'date-time' },
    epcList: { type: 'array', items: { type: 'string' } },
    action: { type: 'string', enum: ['OBSERVE'] },
    bizStep: { type: 'string', enum: ['arriving', 'departing'] },
    disposition: { type: 'string', enum: ['in_progress', 'in_transit'] },
    readPoint: uriObject,
    bizLocation: uriObject,
  },
};

export const epcisQueryDocumentSchema = {
  type: 'object',
  required: ['@context', 'type', 'schemaVersion', 'creationDate', 'epcisBody'],
  properties: {
    '@context': { type: 'array', items: { type: 'string' } },
    type: { type: 'string', enum: ['EPCISQueryDocument'] },
    schemaVersion: { type: 'string', enum: ['2.0'] },
    creationDate: { type: 'string', format: 'date-time' },
    epcisBody: {
      type: 'object',
      required: ['queryResults'],
      properties: {
        queryResults: {
          type: 'object',
          required: ['queryName', 'resultsBody'],
          properties: {
            queryName: { type: 'string' },
            resultsBody: { type: 'object', required: ['eventList'], properties: { eventList: { type: 'array', items: objectEventSchema } } },
          },
        },
      },
    },
  },
};

const uriMap = { type: 'object', additionalProperties: { type: 'string' }, description: 'name -> URI' };

export const locationBodySchema = {
  type: 'object',
  required: ['facility'],
  additionalProperties: false,
  properties: {
    facility: { type: 'string', description: 'the facility these identifiers are for' },
    bizLocation: { type: 'string', nullable: true, description: 'the facility as bizLocation: an SGLN URN (urn:epc:id:sgln:...) or an http(s) URL; null: the default' },
    timeZone: { type: 'string', nullable: true, description: 'IANA time zone of eventTimeZoneOffset; null: UTC' },
    zones: { ...uriMap, nullable: true, description: 'zone name -> readPoint URI' },
    thresholds: { ...uriMap, nullable: true, description: 'threshold name -> readPoint URI' },
  },
};

export const locationResponseSchema = {
  type: 'object',
  required: ['facility', 'bizLocation', 'timeZone', 'zones', 'thresholds'],
  additionalProperties: false,
  properties: {
    facility: { type: 'string' },
    bizLocation: { type: 'string', nullable: true },
    timeZone: { type: 'string', nullable: true },
    zones: uriMap,
    thresholds: uriMap,
  },
};
