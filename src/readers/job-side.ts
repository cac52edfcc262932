// What every connector (LLRP, IoT) does on tagtrail's side, whatever the
// protocol: record the reader's health events, fail the reader in a job, and
// give up tag reads that can never be stored in the open (a warning line with
// their count, and a metric). Its tag reads reach the job through the link's
// outbox (./outbox.ts).
import type { AppDeps } from '../slice';
import type { Logger } from '../core/logger';
import { metrics } from '../core/metrics';
import { reportHealth, type AgentHealthEvent, type JobsForAgents, type Observation, type RefusalReason } from '../agents';
import { onJob, jobsWaiter } from '../jobs';
import { runCommand } from '../core/command';
import { doorPlanOf } from './door';
import { THRESHOLD_REPORT_INTERVAL_MS, type DoorPlan } from './plan';
import * as E from 'fp-ts/Either';
import type { Assignment } from '../agents';

export interface ReaderSide {
  readonly deps: AppDeps;
  readonly jobs: JobsForAgents;
  readonly logger: Logger;
  readonly reader: string;
  readonly now: () => Date;
}

export async function readerHealth(s: ReaderSide, type: AgentHealthEvent['type'], code: string, args: Record<string, unknown>): Promise<void> {
  await reportHealth(s.deps, s.reader, [{ eventTime: s.now().toISOString(), type, code, args }]).catch((err: unknown) =>
    s.logger.warn('could not record a reader health event', { reader: s.reader, code, err }),
  );
}

/** The reader cannot run its part of the job: a job error naming why, and the reader failed (FailReader). */
export async function failInJob(s: ReaderSide, jobId: string, message: string): Promise<void> {
  s.logger.warn('reader cannot run its part of the job', { reader: s.reader, jobId, reason: message });
  await runCommand(s.deps.client, onJob(jobId), { type: 'FailReader', readerName: s.reader, message }, { now: s.now(), metadata: { user: `reader:${s.reader}` }, waiter: jobsWaiter(s.deps) });
}

/** The recipe's reporting interval of an assignment, in ms (1 s when it has none; at most a minute); a THRESHOLD recipe's door readers THRESHOLD_REPORT_INTERVAL_MS. */
export function flushMsOf(recipe: Record<string, unknown>): number {
  if (recipe['type'] === 'THRESHOLD') return THRESHOLD_REPORT_INTERVAL_MS;
  const interval = recipe['reportingInterval'];
  return Math.min(60, typeof interval === 'number' && interval > 0 ? interval : 1) * 1000;
}

/**
 * The antennas a door reader reads with in its THRESHOLD job (door.ts, the
 * door plan every connector runs), as the stored configuration says now; a
 * Left saying why there are none.
 */
export async function doorAntennasFor(s: ReaderSide, assignment: Assignment): Promise<E.Either<string, readonly number[]>> {
  const plan = await doorPlanOf(s.deps.readModel, s.reader, assignment);
  if (plan === undefined) return E.left(`recipe ${String(assignment.recipe['name'])} is not a THRESHOLD recipe`);
  return E.map((p: DoorPlan) => p.antennaIds)(plan);
}

/**
 * Why a connector gives tag reads up (docs/readers.md, "What a connection
 * keeps, retries and drops"): the agent gateway's final refusals (the reader is
 * no longer in the job: NOT_ASSIGNED, OTHER_JOB), an antenna id no report may
 * carry, one observation larger than an append, and what was not stored when
 * the readers role stopped.
 */
export type DropReason = RefusalReason | 'ANTENNA_OUT_OF_RANGE' | 'TOO_LARGE' | 'SHUTDOWN';

/** What was dropped: observations (reads folded per EPC and antenna) and the tag reads in them. */
export interface Dropped {
  readonly jobId: string | null;
  readonly observations: number;
  readonly reads: number;
  /** Why, in the words of whoever refused. */
  readonly detail?: string;
}

/** Tag reads in observations (each counts its reads). */
export const readsIn = (observations: readonly Observation[]): number => observations.reduce((n, o) => n + o.readCount, 0);

/** Tag reads given up for good: one warning line with their count, and the count in tagtrail_reader_reads_dropped_total. */
export function dropReads(s: Pick<ReaderSide, 'logger' | 'reader'>, reason: DropReason, what: Dropped): void {
  s.logger.warn('tag reads dropped', { reader: s.reader, reason, ...what });
  metrics.readerReadsDropped.inc({ reader: s.reader, reason }, what.reads);
}
