// JSON Schemas (OpenAPI 3.0 dialect) of the job answers: what the contract
// tests check every answer against (view.ts builds them).
import { JobStatus, StopReason } from './model';

const nullableString = { type: 'string', nullable: true };

/** The job status object (toStatusObject). */
export const jobStatusSchema: Record<string, unknown> = {
  type: 'object',
  required: [
    'id', 'status', 'readerNames', 'failedReaderNames', 'creationTime', 'lastActivityTime', 'activeDuration', 'errorOccurred',
    'errors', 'maxErrors', 'stopReason', 'facilities', 'job', 'instanceMetadata', 'lastHeartbeatTime', 'startAttempts',
  ],
  additionalProperties: false,
  properties: {
    id: { type: 'string' },
    status: { type: 'string', enum: Object.keys(JobStatus.keys) },
    readerNames: { type: 'array', items: { type: 'string' } },
    failedReaderNames: { type: 'array', items: { type: 'string' } },
    creationTime: { type: 'string', format: 'date-time' },
    lastActivityTime: { type: 'string', format: 'date-time' },
    activeDuration: { type: 'integer', minimum: 0, description: 'seconds spent RUNNING' },
    errorOccurred: { type: 'boolean' },
    errors: { type: 'array', items: { type: 'object', required: ['time', 'message'], properties: { time: { type: 'string' }, message: { type: 'string' } } } },
    maxErrors: { type: 'integer' },
    stopReason: { type: 'string', enum: [...Object.keys(StopReason.keys), null], nullable: true },
    facilities: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
    job: { type: 'object', nullable: true, description: 'the job request as stored, defaults filled in' },
    instanceMetadata: { type: 'object', nullable: true, description: 'always null' },
    lastHeartbeatTime: nullableString,
    startAttempts: { type: 'integer', minimum: 0 },
  },
};

/** GET stats/{jobId}: the job's counters (projections/jobs). */
export const jobStatsSchema: Record<string, unknown> = {
  type: 'object',
  additionalProperties: false,
  required: ['jobId', 'reports', 'observations', 'itemsSeen', 'lastReportTime'],
  properties: {
    jobId: { type: 'string' },
    reports: { type: 'integer', minimum: 0, description: 'tag reports received' },
    observations: { type: 'integer', minimum: 0 },
    itemsSeen: { type: 'integer', minimum: 0, description: 'distinct EPCs, an estimate (HyperLogLog)' },
    lastReportTime: { ...nullableString, description: 'null before the first report' },
  },
};
