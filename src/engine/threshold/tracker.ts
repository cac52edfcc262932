// The threshold side of the engine: per THRESHOLD job, one track per (threshold,
// EPC) with the reads of the passage window, fed straight from the report
// columns; a sweep decides the tracks whose tag went quiet or settled on the
// far side (decide.ts). No I/O, no clock: times come from the caller, as for
// the item engine. Open tracks travel in the engine's output and snapshots
// (passages.ts), so a passage in progress when the engine stops or fails is
// finished by the next run (docs/item-processing.md).
import type { EngineReport } from '../report';
import { addRead, BIN_MS, decide, dropBefore, newTrack, readWeight, type Track, type Verdict } from './decide';
import { rolesOf, type ThresholdJobContext } from './context';
import { finiteOrNull, orNone, type OpenPassages } from './passages';
import { transitionIdOf, type ThresholdIteration, type ThresholdTransition } from './transition';

export interface ThresholdOutput {
  readonly transitions: ThresholdTransition[];
  readonly iterations: ThresholdIteration[];
}

interface JobTracks {
  ctx: ThresholdJobContext;
  /** `<threshold index>\u0000<EPC>` -> track. */
  readonly tracks: Map<string, Track>;
  readonly tids: Map<string, string>;
  /** Per threshold (index), the newest read time of any tag by its antennas: how far its readers have reported. */
  readonly doorTime: number[];
}

/**
 * A track whose readers reported nothing at all for this long past quietMs
 * (readers stopped, or the door is empty and nothing else is read) is
 * concluded on the engine's clock instead.
 */
export const QUIET_FALLBACK_MS = 5_000;

export const emptyOutput = (): ThresholdOutput => ({ transitions: [], iterations: [] });

export class ThresholdTracker {
  private readonly jobs = new Map<string, JobTracks>();
  private lastSweep = -Infinity;

  /** Open tracks (tests, logs). */
  get openTracks(): number {
    let n = 0;
    for (const j of this.jobs.values()) n += j.tracks.size;
    return n;
  }

  /** Whether any THRESHOLD job has reported to this tracker (its open tracks are then part of the output). */
  get active(): boolean {
    return this.jobs.size > 0;
  }

  /** The open tracks as data (passages.ts): a copy, later reads do not change it. */
  openPassages(): OpenPassages {
    return [...this.jobs.values()].map((job) => ({
      jobId: job.ctx.jobId,
      doorTime: job.doorTime.flatMap((time, i): Array<[number, number]> => (Number.isFinite(time) ? [[job.ctx.thresholds[i]!.id, time]] : [])),
      tids: [...job.tids],
      tracks: [...job.tracks].map(([key, tr]) => ({
        thresholdId: job.ctx.thresholds[Number(key.slice(0, key.indexOf('\u0000')))]!.id,
        epc: key.slice(key.indexOf('\u0000') + 1),
        bins: tr.bins.slice(),
        wIn: tr.wIn.slice(),
        wOut: tr.wOut.slice(),
        nIn: tr.nIn.slice(),
        nOut: tr.nOut.slice(),
        lastRead: finiteOrNull(tr.lastRead),
        lastArrival: finiteOrNull(tr.lastArrival),
        floorBin: finiteOrNull(tr.floorBin),
        side: tr.side ?? null,
        dirty: tr.dirty,
      })),
    }));
  }

  /**
   * Takes back open tracks written by openPassages (replacing what this
   * tracker had). Jobs without a context (stopped, no longer THRESHOLD) and
   * thresholds their context no longer watches are left out.
   */
  restore(passages: OpenPassages, contextOf: (jobId: string) => ThresholdJobContext | undefined): void {
    this.jobs.clear();
    for (const p of passages) {
      const ctx = contextOf(p.jobId);
      if (ctx === undefined) continue;
      const indexOf = new Map(ctx.thresholds.map((th, i) => [th.id, i]));
      const job: JobTracks = { ctx, tracks: new Map(), tids: new Map(p.tids), doorTime: [] };
      for (const [thresholdId, time] of p.doorTime) {
        const i = indexOf.get(thresholdId);
        if (i !== undefined) job.doorTime[i] = time;
      }
      for (const tr of p.tracks) {
        const i = indexOf.get(tr.thresholdId);
        if (i === undefined) continue;
        job.tracks.set(`${i}\u0000${tr.epc}`, {
          bins: tr.bins.slice(),
          wIn: tr.wIn.slice(),
          wOut: tr.wOut.slice(),
          nIn: tr.nIn.slice(),
          nOut: tr.nOut.slice(),
          lastRead: orNone(tr.lastRead),
          lastArrival: orNone(tr.lastArrival),
          floorBin: orNone(tr.floorBin),
          side: tr.side ?? undefined,
          dirty: tr.dirty,
        });
      }
      this.jobs.set(p.jobId, job);
    }
  }

  /**
   * Adds the report's reads of threshold antennas; reads of antennas the job
   * does not watch (ignored, unlisted, other readers) are skipped. A read's
   * time is the middle of its observation's first and last sighting, never
   * after `now`. Sweeps when `now` moved on by a bin since the last sweep, so
   * tracks are decided during a catch-up too.
   */
  ingest(report: EngineReport, ctx: ThresholdJobContext, now: number, out: ThresholdOutput = emptyOutput()): ThresholdOutput {
    let job = this.jobs.get(ctx.jobId);
    if (job === undefined) this.jobs.set(ctx.jobId, (job = { ctx, tracks: new Map(), tids: new Map(), doorTime: [] }));
    else job.ctx = ctx;
    const byAntenna = ctx.antennas.get(report.reader);
    if (byAntenna !== undefined) {
      const { epc, antennaId, peakRssi, lastSeen, firstSeen, readCount, tid, timeBase } = report;
      // How far this reader has reported (any antenna, any tag, ignored ones too), for the doors it watches.
      let newest = -Infinity;
      for (let i = 0; i < lastSeen.length; i++) if (lastSeen[i]! > newest) newest = lastSeen[i]!;
      if (newest > -Infinity) {
        const readerTime = Math.min(timeBase + newest, now);
        for (const roles of byAntenna.values()) for (const r of roles) if (!(readerTime <= (job.doorTime[r.threshold] ?? -Infinity))) job.doorTime[r.threshold] = readerTime;
      }
      for (let i = 0; i < epc.length; i++) {
        const roles = rolesOf(byAntenna, antennaId[i]!);
        if (roles === undefined) continue;
        const last = lastSeen[i]!;
        const time = Math.min(timeBase + (firstSeen === undefined ? last : (firstSeen[i]! + last) / 2), now);
        const count = readCount?.[i] ?? 1;
        const weight = readWeight(peakRssi[i]!, count);
        for (const role of roles) {
          const key = `${role.threshold}\u0000${epc[i]!}`;
          let track = job.tracks.get(key);
          if (track === undefined) job.tracks.set(key, (track = newTrack()));
          addRead(track, time, role.side, weight, count);
          track.lastArrival = now;
        }
        const t = tid?.[i];
        if (t != null) job.tids.set(epc[i]!, t);
      }
    }
    // On the BIN_MS grid of the engine's time, not "BIN_MS since the last sweep": a run resumed at a
    // time (resumeAt) sweeps where the run before it did, so a replay decides the same passages.
    if (Math.floor(now / BIN_MS) > Math.floor(this.lastSweep / BIN_MS)) this.sweep(now, out);
    return out;
  }

  /**
   * Decides what is due at `now`: a track whose tag was not read for quietMs
   * gets its final decision and is dropped. "Not read for quietMs" is told by
   * the door's own reports: its readers reported reads (of any tag, on any antenna) at least
   * quietMs after the tag's last read, so a report that comes late (a slow
   * network, a busy engine) cannot end a passage early, and reader clocks
   * are compared with reader clocks; when they report nothing at all,
   * QUIET_FALLBACK_MS more on the engine's clock does. A track with new reads is
   * decided early when its tag has settled on the far side (settleMs). Reads
   * older than the passage window are dropped.
   */
  sweep(now: number, out: ThresholdOutput = emptyOutput()): ThresholdOutput {
    this.lastSweep = now;
    for (const job of this.jobs.values()) {
      const { params } = job.ctx;
      for (const [key, track] of job.tracks) {
        dropBefore(track, Math.floor((track.lastRead - params.passageWindowMs) / BIN_MS) + 1);
        const door = job.doorTime[Number(key.slice(0, key.indexOf('\u0000')))] ?? -Infinity;
        if (door - track.lastRead >= params.quietMs || now - track.lastArrival >= params.quietMs + QUIET_FALLBACK_MS) {
          this.conclude(job, key, track, now, true, out);
          job.tracks.delete(key);
        } else if (track.dirty) {
          this.conclude(job, key, track, now, false, out);
        }
      }
    }
    return out;
  }

  /** Whether a sweep is due at `now` on the BIN_MS grid (the run sweeps after each input that moves time past a bin). */
  sweepDue(now: number): boolean {
    return this.active && Math.floor(now / BIN_MS) > Math.floor(this.lastSweep / BIN_MS);
  }

  /** A run resumed at the engine time `now`: its grid goes on from there (see ingest). */
  resumeAt(now: number): void {
    this.lastSweep = now;
  }

  /** The contexts of the jobs tracked, after the configuration changed; jobs without one keep theirs. */
  refreshContexts(contextOf: (jobId: string) => ThresholdJobContext | undefined): void {
    for (const [jobId, job] of this.jobs) job.ctx = contextOf(jobId) ?? job.ctx;
  }

  /** The job ended: every open track gets its final decision. */
  endJob(jobId: string, now: number, out: ThresholdOutput = emptyOutput()): ThresholdOutput {
    const job = this.jobs.get(jobId);
    if (job === undefined) return out;
    for (const [key, track] of job.tracks) this.conclude(job, key, track, now, true, out);
    this.jobs.delete(jobId);
    return out;
  }

  private conclude(job: JobTracks, key: string, track: Track, now: number, final: boolean, out: ThresholdOutput): void {
    track.dirty = false;
    const verdict = decide(track, job.ctx.params, final);
    const sep = key.indexOf('\u0000');
    const threshold = job.ctx.thresholds[Number(key.slice(0, sep))]!;
    const epc = key.slice(sep + 1);
    if (job.ctx.iterationData && (final || verdict.kind === 'TRANSITION')) out.iterations.push(iterationOf(job.ctx.jobId, threshold.id, epc, now, track, verdict));
    if (verdict.kind !== 'TRANSITION') {
      if (final) job.tids.delete(epc);
      return;
    }
    const ctx = job.ctx;
    out.transitions.push({
      transitionId: transitionIdOf(ctx.jobId, threshold.id, epc, verdict.at),
      jobId: ctx.jobId,
      thresholdId: threshold.id,
      thresholdName: threshold.name,
      facility: ctx.facility,
      epc,
      tid: job.tids.get(epc) ?? null,
      destination: verdict.destination,
      confidence: verdict.confidence,
      observationTime: verdict.at,
      reportToDatabaseEnabled: ctx.reportToDatabaseEnabled,
      reportToMessageQueueEnabled: ctx.reportToMessageQueueEnabled,
    });
    // What led there is spent: the track goes on from the destination side, so a return is a new transition.
    track.side = verdict.destination === 'IN' ? 1 : -1;
    track.floorBin = verdict.fromBin;
    dropBefore(track, verdict.fromBin);
    if (final) job.tids.delete(epc);
  }
}

function iterationOf(jobId: string, thresholdId: number, epc: string, now: number, track: Track, verdict: Verdict): ThresholdIteration {
  const sum = (col: readonly number[]): number => col.reduce((a, b) => a + b, 0);
  const round = (n: number): number => Math.round(n * 100) / 100;
  return {
    jobId,
    thresholdId,
    epc,
    time: now,
    outcome: verdict.kind === 'TRANSITION' ? 'TRANSITION' : verdict.reason,
    destination: verdict.kind === 'TRANSITION' ? verdict.destination : null,
    confidence: verdict.kind === 'TRANSITION' ? verdict.confidence : null,
    readsIn: sum(track.nIn),
    readsOut: sum(track.nOut),
    weightIn: round(sum(track.wIn)),
    weightOut: round(sum(track.wOut)),
    firstRead: (track.bins[0] ?? 0) * BIN_MS,
    lastRead: track.lastRead,
  };
}
