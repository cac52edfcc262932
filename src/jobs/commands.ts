// Where job commands run: `job-<id>`, decided by decideJob. Every reader of a
// job acknowledges on the same stream, often at once: each lost race
// re-reads and decides again (acks are idempotent), ten times before a 409.
import type { CommandStream, Decider } from '../core/command';
import type { ApiError } from '../core/http/errors';
import { decideJob, type JobCommand } from './decide';
import { evolveJob, jobEvents, jobStream, type JobEvent } from './events';
import { initialJobState, type JobState } from './model';

export const jobDecider: Decider<JobCommand, JobState, JobEvent, ApiError> = { initialState: initialJobState, evolve: evolveJob, decide: decideJob };

/** For runCommand: the job's stream. */
export const onJob = (jobId: string): CommandStream<typeof jobEvents, JobCommand, JobState, ApiError> => ({
  stream: jobStream(jobId),
  codecs: jobEvents,
  decider: jobDecider,
  retries: 10,
  conflict: `job ${jobId} changed concurrently; retry`,
});
