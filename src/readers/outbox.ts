// The tag reads of one reader on their way to the event log (docs/readers.md,
// "What a connection keeps, retries and drops"). Reads are folded per job
// (ReadBatch: one observation per EPC and antenna) and sealed, once the job's
// reporting interval is up, into one TagsReported at a time, stored through
// the agent gateway's acceptReport.
//
// A report is sent until it is stored or refused for good (the reader is no
// longer in the job: FINAL_REFUSALS), always as the same report with the same
// reportId, after the project's back-off: a read model rebuilding (503), Redis
// or the event store away, an answer that never came. The gateway and the
// event store answer a reportId already stored as stored, so an attempt whose
// answer was lost is not stored twice; sending one report at a time, in order,
// keeps a retry the next append of the reader's stream, where the store
// recognises it.
//
// While a report waits to be sent again, new reads fold into the next one, so
// what is held grows with the tags in view, not with the length of an outage.
// Past `cap` observations the link holds the reader back (`room()`): it stops
// reading the reader's connection until there is room again.
import { randomUUID } from 'node:crypto';
import { MaxAppendSizeExceededError } from '@eventstore/db-client';
import { nameBasedUuid } from '../core/digest';
import { Backoff, sleep } from '../core/retry';
import { acceptReport, isNewestReport, ReportRefused, type Observation, type TagReport } from '../agents';
import { ReadBatch, type TagRead } from './batch';
import { dropReads, readsIn, type DropReason, type ReaderSide } from './job-side';
import { BURST_PAUSE_MS, BURST_READS, REPORT_RETRY_BACKOFF } from './settings';

/** Someone waiting for reads to be stored (an MQTT delivery's acknowledgement). */
interface Waiter {
  resolve(): void;
  reject(err: Error): void;
}

/** Reads folded for one job; `jobId` null: read before the link knew the reader's job. */
interface Held {
  jobId: string | null;
  readonly batch: ReadBatch;
  /** Still taking the job's reads (at most the last one); a closed one is sent as soon as it can be, then goes. */
  open: boolean;
  /** The reporting interval is up: sealed into a report once the reports before it are done. */
  due: boolean;
  /** The report's id when it must come out the same each time (a delivery the reader may send again). */
  readonly reportId: string | undefined;
  readonly waiters: Waiter[];
}

/** A report sealed from held reads: sent until stored or refused for good. */
interface Pending {
  readonly report: TagReport;
  readonly waiters: Waiter[];
  attempts: number;
}

type Outcome = 'done' | 'retry' | 'again';

/** The reader's time of the newest of `reads` (ms); reads without one count as now. */
const newestMs = (reads: readonly TagRead[]): number =>
  reads.reduce((max, r) => Math.max(max, r.lastSeenUs === null ? (r.firstSeenUs === null ? Date.now() : r.firstSeenUs / 1000) : r.lastSeenUs / 1000), -Infinity);

const newHeld = (jobId: string | null, open: boolean, reportId?: string): Held => ({ jobId, batch: new ReadBatch(), open, due: !open, reportId, waiters: [] });

export class Outbox {
  private readonly held: Held[] = [];
  private readonly pending: Pending[] = [];
  private readonly backoff = new Backoff(REPORT_RETRY_BACKOFF);
  private readonly stopped = new AbortController();
  private flushTimer: NodeJS.Timeout | undefined;
  /** The running job's reporting interval (openJob): no open batch spans more of the reader's time. */
  private flushMs: number | undefined;
  /** Reads folded into the running job's open batch since it was last sealed, and the timer that seals a burst once it pauses. */
  private burst = 0;
  private pauseTimer: NodeJS.Timeout | undefined;
  private wakeUp: (() => void) | undefined;
  private roomWaiters: Array<() => void> = [];
  private drainWaiters: Array<() => void> = [];
  private readonly loop: Promise<void>;

  constructor(
    private readonly s: ReaderSide,
    /** Observations held before the link holds the reader back (READERS_HELD_OBSERVATIONS). */
    readonly cap: number,
  ) {
    this.loop = this.run();
  }

  /** Observations held: sealed into reports not stored yet, and folded since. */
  get size(): number {
    let n = 0;
    for (const p of this.pending) n += p.report.observations.length;
    for (const h of this.held) n += h.batch.size;
    return n;
  }

  get hasRoom(): boolean {
    return this.size < this.cap || this.stopped.signal.aborted;
  }

  /** Resolves once fewer than `cap` observations are held (at once when they are). */
  room(): Promise<void> {
    return this.hasRoom ? Promise.resolve() : new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  /** Reads of the reader: the running job's, or held until the link knows its job (openJob) or that it has none (noJob). */
  add(reads: readonly TagRead[]): void {
    if (reads.length === 0) return;
    let h = this.held[this.held.length - 1];
    if (h === undefined || !h.open) this.held.push((h = newHeld(null, true)));
    else if (h.jobId !== null && this.flushMs !== undefined && newestMs(reads) - h.batch.firstMs >= this.flushMs) {
      // The batch already spans the reporting interval by the reader's own times: sealed before these
      // reads join it, so a report never folds more than the interval, however late the timer runs.
      h.open = false;
      h.due = true;
      this.held.push((h = newHeld(h.jobId, true)));
      this.wake();
    }
    this.fold(h, reads);
    if (h.jobId === null || this.flushTimer === undefined) return;
    this.burst += reads.length;
    if (this.burst < BURST_READS) return;
    // Restarted by every read of the burst: it fires once the reader pauses.
    if (this.pauseTimer === undefined) this.pauseTimer = setTimeout(() => this.burstEnded(), BURST_PAUSE_MS).unref();
    else this.pauseTimer.refresh();
  }

  /** A burst of the running job's reads paused: its batch is sealed now rather than at the end of the interval. */
  private burstEnded(): void {
    const open = this.held[this.held.length - 1];
    if (this.burst < BURST_READS || open?.open !== true || open.jobId === null) return;
    open.due = true;
    this.wake();
  }

  /** Stores `reads` in `jobId` as a report of their own, `reportId`; resolves once stored, or dropped as refused for good. */
  store(reads: readonly TagRead[], jobId: string, reportId: string): Promise<void> {
    const h = newHeld(jobId, false, reportId);
    this.fold(h, reads);
    if (h.batch.size === 0) return Promise.resolve();
    const done = new Promise<void>((resolve, reject) => h.waiters.push({ resolve, reject }));
    // Before the running job's open batch, which goes on taking reads.
    const last = this.held[this.held.length - 1];
    this.held.splice(last?.open === true ? this.held.length - 1 : this.held.length, 0, h);
    this.wake();
    return done;
  }

  /** The reader runs `jobId` now: what was held without a job is its; its reads are sealed every `flushMs`. */
  openJob(jobId: string, flushMs: number): void {
    this.closeJob();
    if (this.stopped.signal.aborted) return;
    const last = this.held[this.held.length - 1];
    if (last?.open === true && last.jobId === null) last.jobId = jobId;
    else this.held.push(newHeld(jobId, true));
    this.flushMs = flushMs;
    this.flushTimer = setInterval(() => {
      const open = this.held[this.held.length - 1];
      if (open?.open !== true) return;
      open.due = true;
      this.wake();
    }, flushMs);
  }

  /** The running job ended here (stopped, or the connection went): its last reads are sent; later ones are held again. */
  closeJob(): void {
    clearInterval(this.flushTimer);
    this.flushTimer = undefined;
    this.flushMs = undefined;
    clearTimeout(this.pauseTimer);
    this.pauseTimer = undefined;
    this.burst = 0;
    const last = this.held[this.held.length - 1];
    if (last?.open !== true || last.jobId === null) return;
    last.open = false;
    last.due = true;
    this.wake();
  }

  /** The reader is in no job: reads held without one can never be stored (dropped: NOT_ASSIGNED). */
  noJob(): void {
    for (const h of this.held.filter((x) => x.jobId === null)) {
      this.held.splice(this.held.indexOf(h), 1);
      const taken = h.batch.take();
      if (taken !== null) dropReads(this.s, 'NOT_ASSIGNED', { jobId: null, observations: taken.observations.length, reads: readsIn(taken.observations), detail: 'read while the reader is in no job' });
    }
    this.roomChanged();
  }

  /**
   * Stops: what can be stored within `drainMs` is, the rest is dropped (SHUTDOWN);
   * reads someone waits for (MQTT deliveries) are not acknowledged instead, so
   * the broker delivers them again.
   */
  async stop(drainMs: number): Promise<void> {
    this.closeJob();
    const drained = new Promise<void>((resolve) => this.drainWaiters.push(resolve));
    this.wake();
    const bound = new AbortController();
    const timeUp = sleep(drainMs, bound.signal);
    await Promise.race([drained, timeUp]);
    this.stopped.abort();
    this.wake();
    // An attempt still waiting for its answer is not waited for past the same bound.
    await Promise.race([this.loop, timeUp]);
    bound.abort();
    const gone = new Error('the readers role stopped before these reads were stored');
    for (const p of this.pending.splice(0)) this.giveUp(p.report.jobId, p.report.observations, p.waiters, gone);
    for (const h of this.held.splice(0)) {
      const taken = h.batch.take();
      this.giveUp(h.jobId, taken?.observations ?? [], h.waiters, gone);
    }
    this.roomChanged();
  }

  private giveUp(jobId: string | null, observations: readonly Observation[], waiters: readonly Waiter[], err: Error): void {
    if (waiters.length > 0) waiters.forEach((w) => w.reject(err));
    else if (observations.length > 0) dropReads(this.s, 'SHUTDOWN', { jobId, observations: observations.length, reads: readsIn(observations), detail: err.message });
  }

  private fold(h: Held, reads: readonly TagRead[]): void {
    const before = h.batch.dropped;
    h.batch.add(reads, Date.now());
    const refused = h.batch.dropped - before;
    if (refused > 0) dropReads(this.s, 'ANTENNA_OUT_OF_RANGE', { jobId: h.jobId, observations: refused, reads: refused, detail: 'antenna ids are 1-52 (polarized 1001-1052, 2001-2052)' });
  }

  private wake(): void {
    const w = this.wakeUp;
    this.wakeUp = undefined;
    w?.();
  }

  private roomChanged(): void {
    if (!this.hasRoom) return;
    const waiting = this.roomWaiters;
    this.roomWaiters = [];
    waiting.forEach((r) => r());
  }

  /** One report at a time, oldest first; a failed one again after the back-off. */
  private async run(): Promise<void> {
    const signal = this.stopped.signal;
    while (!signal.aborted) {
      const next = this.pending[0] ?? this.seal();
      if (next === undefined) {
        if (this.held.every((h) => h.jobId === null || h.batch.size === 0)) this.drainWaiters.splice(0).forEach((r) => r());
        await new Promise<void>((resolve) => (this.wakeUp = resolve));
        continue;
      }
      const outcome = await this.attempt(next);
      if (outcome === 'retry') await sleep(this.backoff.next(), signal);
      else if (outcome === 'done') {
        this.pending.shift();
        this.backoff.reset();
        this.roomChanged();
      }
    }
  }

  /** The next report: of the oldest held reads of a job whose interval is up or that ended. */
  private seal(): Pending | undefined {
    for (const h of [...this.held]) {
      if (h.jobId === null || !h.due) continue;
      h.due = false;
      if (h.open) this.burst = 0;
      const taken = h.batch.take();
      const waiters = h.waiters.splice(0);
      if (!h.open) this.held.splice(this.held.indexOf(h), 1);
      if (taken === null) {
        waiters.forEach((w) => w.resolve());
        continue;
      }
      const report = { reportId: h.reportId ?? randomUUID(), jobId: h.jobId, from: new Date(taken.fromMs).toISOString(), to: new Date(taken.toMs).toISOString(), observations: taken.observations };
      const p: Pending = { report, waiters, attempts: 0 };
      this.pending.push(p);
      return p;
    }
    return undefined;
  }

  private async attempt(p: Pending): Promise<Outcome> {
    const { reader } = this.s;
    p.attempts++;
    try {
      await acceptReport(this.s.deps, this.s.jobs, reader, p.report);
      if (p.attempts > 1) this.s.logger.info('tag report stored after all', { reader, jobId: p.report.jobId, reportId: p.report.reportId, attempts: p.attempts });
      p.waiters.forEach((w) => w.resolve());
      return 'done';
    } catch (err) {
      if (err instanceof ReportRefused && err.final) return this.refused(p, err);
      if (err instanceof MaxAppendSizeExceededError) return this.split(p);
      // Told once, and every tenth attempt: an outage of minutes is a few lines, not one a second.
      if (p.attempts % 10 === 1) this.s.logger.warn('tag report not stored; sending it again', { reader, jobId: p.report.jobId, reportId: p.report.reportId, attempt: p.attempts, err: (err as Error).message });
      return 'retry';
    }
  }

  /** Refused for good: dropped, unless an earlier attempt whose answer was lost stored it after all. */
  private async refused(p: Pending, err: ReportRefused): Promise<Outcome> {
    if (p.attempts > 1) {
      const stored = await isNewestReport(this.s.deps, this.s.reader, p.report.reportId).catch(() => undefined);
      if (stored === undefined) return 'retry';
      if (stored) {
        p.waiters.forEach((w) => w.resolve());
        return 'done';
      }
    }
    this.drop(p, err.reason, err.message);
    return 'done';
  }

  /** More than the event store takes in one append (nothing was stored): two halves, each with an id of its own. */
  private split(p: Pending): Outcome {
    const all = p.report.observations;
    if (all.length < 2) {
      this.drop(p, 'TOO_LARGE', 'one observation is larger than the event store takes in one append (EVENTSTORE_MAX_APPEND_SIZE)');
      return 'done';
    }
    const half = Math.ceil(all.length / 2);
    const part = (n: number, observations: TagReport['observations'], waiters: Waiter[]): Pending => ({ report: { ...p.report, reportId: nameBasedUuid(p.report.reportId, String(n)), observations }, waiters, attempts: 0 });
    this.pending.splice(0, 1, part(1, all.slice(0, half), []), part(2, all.slice(half), p.waiters));
    return 'again';
  }

  private drop(p: Pending, reason: DropReason, detail: string): void {
    dropReads(this.s, reason, { jobId: p.report.jobId, observations: p.report.observations.length, reads: readsIn(p.report.observations), detail });
    // Acknowledged: they can never be stored, and they are counted.
    p.waiters.forEach((w) => w.resolve());
  }
}
