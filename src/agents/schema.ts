// JSON Schemas of the agent API bodies, for the OpenAPI document.
const iso = { type: 'string', format: 'date-time' };
const hex = { type: 'string', pattern: '^[0-9A-Fa-f]+$' };

export const checkinSchema = {
  type: 'object',
  required: ['agentId', 'versions', 'state'],
  properties: {
    agentId: { type: 'string', minLength: 1 },
    versions: {
      type: 'object',
      required: ['App', 'Firmware'],
      properties: { App: { type: 'string' }, Firmware: { type: 'string' } },
      example: { App: '1.4.2', Firmware: '7.6.1' },
    },
    state: { type: 'string', enum: ['IDLE', 'RUNNING_JOB', 'UPDATING_FIRMWARE', 'ERROR'] },
    features: { type: 'object', properties: { ANTENNA_HUB: { type: 'string', enum: ['ENABLED', 'DISABLED'] } } },
  },
};

export const tagReportSchema = {
  type: 'object',
  required: ['reportId', 'jobId', 'from', 'to', 'observations'],
  properties: {
    reportId: { type: 'string', format: 'uuid' },
    jobId: { type: 'string' },
    from: iso,
    to: iso,
    observations: {
      type: 'array',
      items: {
        type: 'object',
        required: ['epc', 'antennaId', 'peakRssi', 'readCount', 'firstSeen', 'lastSeen'],
        properties: {
          epc: hex,
          tid: { ...hex, nullable: true },
          antennaId: { type: 'integer', description: '1-52, or polarized 1001-1052 / 2001-2052' },
          peakRssi: { type: 'number' },
          readCount: { type: 'integer', minimum: 1 },
          firstSeen: iso,
          lastSeen: iso,
          x: { type: 'number', nullable: true },
          y: { type: 'number', nullable: true },
        },
      },
    },
  },
};

export const healthEventsSchema = {
  type: 'object',
  required: ['events'],
  properties: {
    events: {
      type: 'array',
      items: {
        type: 'object',
        required: ['eventTime', 'type', 'code'],
        properties: {
          eventTime: iso,
          type: { type: 'string', enum: ['CONNECTION', 'THROUGHPUT', 'CLOCK_SYNC', 'HARDWARE_FAULT', 'SOFTWARE_FAULT', 'LIFECYCLE', 'UNCLASSIFIED'] },
          code: { type: 'string' },
          args: { type: 'object' },
        },
      },
    },
  },
};

export const featureProgressSchema = {
  type: 'object',
  required: ['progress'],
  properties: {
    progress: { type: 'string', enum: ['TAKEN', 'COMPLETED', 'FAILED'] },
    status: { type: 'string', enum: ['ENABLED', 'DISABLED'] },
    message: { type: 'string' },
  },
};

export const commandResultSchema = {
  type: 'object',
  required: ['result'],
  properties: {
    result: { type: 'string', enum: ['DONE', 'FAILED'] },
    message: { type: 'string' },
  },
};
