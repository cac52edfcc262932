// What a connection to one reader keeps whatever its protocol: the reader's
// lease, the job it should run and the one it runs, one job change at a time,
// and the outbox its tag reads go through to the job.
import type { Logger } from '../core/logger';
import { RedisLease } from '../core/redis/lease';
import { flushMsOf, type ReaderSide } from './job-side';
import { Outbox } from './outbox';
import type { AppDeps } from '../slice';
import { type JobsForAgents, completeReaderCommand, markCommandsDelivered, type PendingCommand } from '../agents';
import type { ReadersSettings } from './settings';
import type { CommandOutcome } from './commands';

/** Completed command ids a link remembers: far more than are ever pending for one reader at once. */
const COMPLETED_KEPT = 256;

/** Who completes the commands of readers the role holds. */
const COMMANDS_METADATA = { user: 'readers' };

/** How long a stopping link goes on sending what it holds (docs/readers.md). */
export const STOP_DRAIN_MS = 5000;

/** The job the reader runs here, and whether its start in the job is recorded (the assignment acknowledged). */
export interface RunningJob {
  readonly jobId: string;
  acknowledged: boolean;
}

export interface LinkDeps {
  readonly deps: AppDeps;
  readonly jobs: JobsForAgents;
  readonly settings: ReadersSettings;
  readonly logger: Logger;
  readonly leaseKey: string;
  readonly now?: () => Date;
}

export type LinkState = 'standby' | 'connecting' | 'connected' | 'waiting' | 'stopped';

export abstract class ReaderLinkBase {
  state: LinkState = 'connecting';
  /** What the reader says of its own temperature (degrees Celsius), where its protocol gives it; carried by the check-ins. */
  temperature: number | null = null;
  /** An upgrade is installing on the reader: check-ins say UPDATING_FIRMWARE, as an agent's would. */
  upgrading = false;
  protected running: RunningJob | undefined;
  /** The reader's tag reads on their way to the log. */
  protected readonly outbox: Outbox;
  protected readonly failedJobs = new Set<string>();
  protected readonly stopping = new AbortController();
  protected readonly lease: RedisLease;
  protected readonly side: ReaderSide;
  protected readonly log: Logger;
  /** undefined until the first look said which job the reader is in. */
  private wantedJob: string | null | undefined = undefined;
  protected jobChain: Promise<void> = Promise.resolve();
  /** Job changes queued or under way. */
  private applying = 0;
  private loop: Promise<void> | undefined;
  private commandsBusy = false;
  /** Commands this link completed, oldest first (the last COMPLETED_KEPT): never performed twice. */
  private readonly completed = new Set<string>();

  constructor(
    readonly name: string,
    protected readonly d: LinkDeps,
  ) {
    this.lease = new RedisLease(d.deps.redis, d.leaseKey, d.settings.leaseMs, d.logger, `reader ${name}`);
    this.log = d.logger;
    this.side = { deps: d.deps, jobs: d.jobs, logger: d.logger, reader: name, now: () => (d.now ?? (() => new Date()))() };
    this.outbox = new Outbox(this.side, d.settings.heldObservations);
  }

  abstract get firmware(): string;
  /** Performs one reader command the way the protocol allows. */
  protected abstract perform(c: PendingCommand): Promise<CommandOutcome>;
  /** The connection's life: lease, connect, keep alive, reconnect, until `stopping` aborts. */
  protected abstract run(): Promise<void>;
  /** Brings the reader to `wanted` (null: no job); called one at a time. */
  protected abstract applyJob(wanted: string | null): Promise<void>;

  /**
   * Performs the reader's pending commands, oldest first, while the link is up (called at each
   * look of the role with what it read): each is marked delivered, performed, then completed DONE
   * or FAILED. A look still busy skips; a command this link already completed is skipped too, as
   * the list may have been read while it was being performed.
   */
  async runCommands(commands: readonly PendingCommand[]): Promise<void> {
    if (commands.length === 0 || this.commandsBusy || this.state !== 'connected') return;
    this.commandsBusy = true;
    try {
      for (const c of commands) {
        if (this.completed.has(c.id)) continue;
        if (this.state !== 'connected') return;
        await markCommandsDelivered(this.d.deps, this.name, [c.id], COMMANDS_METADATA, this.side.now());
        const outcome = await this.perform(c).catch((err: unknown): CommandOutcome => ({ result: 'FAILED', message: (err as Error).message }));
        await completeReaderCommand(this.d.deps, this.name, c.id, outcome.result, outcome.message, COMMANDS_METADATA, this.side.now());
        this.completed.add(c.id);
        if (this.completed.size > COMPLETED_KEPT) this.completed.delete(this.completed.values().next().value as string);
        this.log.info('reader command performed', { reader: this.name, command: c.type, commandId: c.id, result: outcome.result, message: outcome.message });
      }
    } catch (err) {
      this.log.warn('reader commands not performed; retried at the next look', { reader: this.name, err: (err as Error).message });
    } finally {
      this.commandsBusy = false;
    }
  }

  start(): void {
    this.loop ??= this.run().catch((err: unknown) => this.log.error('reader link stopped on an error', { reader: this.name, err }));
  }

  /** The job the reader should run now (null: none). Applied as soon as the link is up. */
  setJob(jobId: string | null): void {
    // The same job again is applied again while the reader does not run it or its start is not
    // recorded (a start or an acknowledgement that failed is retried at every look), unless the
    // reader failed in it.
    const settled = jobId === null || this.failedJobs.has(jobId) ? this.running === undefined : this.running?.jobId === jobId && this.running.acknowledged;
    if (jobId === this.wantedJob && (settled || this.applying)) {
      // Reads that came while the reader is in no job (a reader still reading) can never be stored.
      if (jobId === null && settled && this.applying === 0) this.outbox.noJob();
      return;
    }
    this.wantedJob = jobId;
    this.kickJob();
  }

  get runningJob(): string | null {
    return this.running?.jobId ?? null;
  }

  protected kickJob(): void {
    // Not known yet: nothing is started nor stopped, and reads the reader sends meanwhile are held.
    if (this.wantedJob === undefined) return;
    this.applying++;
    this.jobChain = this.jobChain
      .then(() => this.applyJob(typeof this.wantedJob === 'string' && !this.failedJobs.has(this.wantedJob) ? this.wantedJob : null))
      .catch((err: unknown) => this.log.warn('job change on the reader failed; retried at the next look', { reader: this.name, err: (err as Error).message }))
      .finally(() => this.applying--);
  }

  /** Stops the reader's job (its last reads stored within STOP_DRAIN_MS), then the connection loop; `beforeLoop` closes the connection. */
  protected async stopLink(beforeLoop: () => Promise<void> = async () => undefined): Promise<void> {
    this.wantedJob = null;
    this.kickJob();
    await this.jobChain.catch(() => undefined);
    await this.outbox.stop(STOP_DRAIN_MS);
    this.stopping.abort();
    await beforeLoop();
    await this.loop;
    await this.lease.release();
    this.state = 'stopped';
  }

  /**
   * The reader runs `jobId` from now: created before the reader is told to start, so reads that
   * come before its answer is read are the job's too. `flushMs`: how long its reads fold (a THRESHOLD
   * door's timing; the recipe's reporting interval otherwise).
   */
  protected beginJob(jobId: string, recipe: Record<string, unknown>, flushMs = flushMsOf(recipe)): void {
    this.running = { jobId, acknowledged: false };
    this.outbox.openJob(jobId, flushMs);
  }

  /** Records the reader's start in its job, as an agent acknowledges its assignment; a failure is tried again at the next look. */
  protected async acknowledge(): Promise<void> {
    const running = this.running;
    if (running === undefined || running.acknowledged) return;
    await this.d.jobs.acknowledgeAssignment(this.d.deps, running.jobId, this.name, this.side.now());
    running.acknowledged = true;
  }

  /** The job no longer runs here: its last reads are sent (the outbox keeps trying after this returns). */
  protected endJobLocally(): void {
    if (this.running === undefined) return;
    this.running = undefined;
    this.outbox.closeJob();
  }
}
