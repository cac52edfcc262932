// Runs a job command against `job-<id>` (read, fold, decide, append with the
// read revision) and maps a lost race to a 409.
import type { EventStoreDBClient } from '@eventstore/db-client';
import * as E from 'fp-ts/Either';
import { handleCommand, type CommandOutcome } from '../core/command';
import { ConcurrencyError } from '../core/eventstore';
import type { EventMetadata } from '../core/events';
import { conflict, type ApiError } from '../core/http/errors';
import { decideJob, type JobCommand } from './decide';
import { evolveJob, jobEvents, jobStream, type JobEvent } from './events';
import { initialJobState, type JobState } from './model';

export async function runJobCommand(
  client: EventStoreDBClient,
  jobId: string,
  command: JobCommand,
  now: Date,
  metadata: EventMetadata = {},
): Promise<E.Either<ApiError, CommandOutcome<JobState, JobEvent>>> {
  try {
    return await handleCommand({
      client,
      stream: jobStream(jobId),
      codecs: jobEvents,
      initial: initialJobState,
      evolve: evolveJob,
      decide: decideJob,
      command,
      now,
      metadata,
      // Every reader of a job acknowledges on the same stream, often at once:
      // each lost race re-reads and decides again (acks are idempotent).
      retries: 10,
    });
  } catch (err) {
    if (err instanceof ConcurrencyError) return E.left(conflict(`job ${jobId} changed concurrently; retry`));
    throw err;
  }
}
