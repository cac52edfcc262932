// What every connector (LLRP, IoT) does on tagtrail's side, whatever the
// protocol: record the reader's health events, fail the reader in a job, and
// feed its tag reads to the job as TagsReported through the agent gateway's
// own acceptReport (the same events, duplicate guard and statistics).
import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../slice';
import type { Logger } from '../core/logger';
import { ApiError } from '../core/http/errors';
import { acceptReport, reportHealth, type AgentHealthEvent, type JobsForAgents } from '../agents';
import { onJob, jobsWaiter } from '../jobs';
import { runCommand } from '../core/command';
import type { TagRead } from '../llrp';
import { ReadBatch } from './batch';

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

/** The recipe's reporting interval of an assignment, in ms (1 s when it has none; at most a minute). */
export function flushMsOf(recipe: Record<string, unknown>): number {
  const interval = recipe['reportingInterval'];
  return Math.min(60, typeof interval === 'number' && interval > 0 ? interval : 1) * 1000;
}

/** Stores `reads` in the reader's job now, as one TagsReported (refused: not kept, as a late report). */
export async function storeReads(s: ReaderSide, jobId: string, reads: readonly TagRead[]): Promise<void> {
  const feed = new JobFeed(s, jobId, 60_000);
  feed.add(reads);
  await feed.close();
}

/** Tag reads of one reader in one job, appended as one TagsReported per interval. */
export class JobFeed {
  private readonly batch = new ReadBatch();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly s: ReaderSide,
    readonly jobId: string,
    private readonly flushMs: number,
  ) {
    this.schedule();
  }

  add(reads: readonly TagRead[]): void {
    this.batch.add(reads, Date.now());
  }

  /** Appends what is held; resolves once it is stored (or refused for good). Flushes run one at a time. */
  flush(): Promise<void> {
    this.flushing = this.flushing.catch(() => undefined).then(() => this.flushNow());
    return this.flushing;
  }

  /** Stops the timer and stores what is left. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.flush();
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => void this.flush().catch(() => undefined).finally(() => this.schedule()), this.flushMs);
  }

  private async flushNow(): Promise<void> {
    const batch = this.batch.take();
    if (batch === null) return;
    const report = { reportId: randomUUID(), jobId: this.jobId, from: new Date(batch.fromMs).toISOString(), to: new Date(batch.toMs).toISOString(), observations: batch.observations };
    try {
      await acceptReport(this.s.deps, this.s.jobs, this.s.reader, report);
    } catch (err) {
      if (err instanceof ApiError) {
        // Refused (the job stopped meanwhile): as an agent's late report, not kept.
        this.s.logger.debug('tag report refused', { reader: this.s.reader, jobId: this.jobId, reason: err.message });
        return;
      }
      this.s.logger.warn('tag report not stored; kept for the next flush', { reader: this.s.reader, err: (err as Error).message });
      this.batch.add(
        batch.observations.map((o) => ({ epc: o.epc, antennaId: o.antennaId, peakRssi: o.peakRssi, firstSeenUs: Date.parse(o.firstSeen) * 1000, lastSeenUs: Date.parse(o.lastSeen) * 1000, seenCount: o.readCount, channelIndex: null, phaseAngle: o.phaseAngle ?? null, tid: o.tid })),
        Date.now(),
      );
      throw err;
    }
  }
}
