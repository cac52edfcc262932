// What src/jobs offers to other slices and to projections; everything else in
// this folder is its own (docs/architecture.md, "Boundaries").
export { jobsForAgents } from './agents';
export { onJob } from './commands';
export { jobsReadModel, jobsWaiter } from './context';
export { JOB_STREAM_PREFIX, evolveJob, jobEvents, jobStream, type JobEvent } from './events';
export { heldReaders, initialJobState, type JobState } from './model';
export { JobsReadModel, decodeJobState, jobKeys, JOBS_PROJECTION, JOBS_READ_MODEL } from './readmodel';
