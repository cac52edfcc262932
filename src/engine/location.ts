// LOCATION placement: the readers' x/y estimates are kept for computeWindow;
// at every multiple of reportingInterval the location is recomputed from the
// window (estimate.ts: the zone most estimates fall in, the median of those),
// and reported only when it moved at least minimumMovementInMeters from the
// last reported location.
import { locate, type ZoneAt } from './estimate';
import type { EngineReport } from './report';
import { observe } from './transition';
import { ABSENT, FACILITY } from './zones';
import { type ItemChange, type ItemState, type ItemView, type JobContext, type JobRuntime, type Position } from './types';

/** Keeps the estimates of one report. Observations without x/y (the reader could not locate the tag) are left out. */
export function addSamples(runtime: JobRuntime, report: EngineReport, timeOf: (i: number) => number, now: number): void {
  const floor = runtime.ctx.readers.get(report.reader)?.floor ?? null;
  const { epc, tid, x: xs, y: ys } = report;
  if (xs !== undefined && ys !== undefined) {
    for (let i = 0; i < epc.length; i++) {
      const x = xs[i] ?? null;
      const y = ys[i] ?? null;
      if (x === null || y === null) continue;
      const e = epc[i]!;
      const list = runtime.samples.get(e) ?? [];
      list.push({ time: timeOf(i), x, y, floor, tid: tid?.[i] ?? null });
      runtime.samples.set(e, list);
    }
  }
  if (runtime.nextComputeAt === undefined && runtime.samples.size > 0) {
    const interval = runtime.ctx.recipe.reportingIntervalMs;
    // Multiples of the interval: every engine (and every replay) computes at the same instants.
    runtime.nextComputeAt = (Math.floor(now / interval) + 1) * interval;
  }
}

/**
 * Runs every computation due up to `now`, in order, so the outcome does not
 * depend on how often the engine is ticked. Stops scheduling once no sample
 * is left (a long quiet period costs nothing).
 */
export function computeDue(runtime: JobRuntime, view: ItemView, now: number): ItemChange[] {
  const changes: ItemChange[] = [];
  const interval = runtime.ctx.recipe.reportingIntervalMs;
  while (runtime.nextComputeAt !== undefined && runtime.nextComputeAt <= now) {
    changes.push(...computeAt(runtime, view, runtime.nextComputeAt));
    runtime.nextComputeAt = runtime.samples.size === 0 ? undefined : runtime.nextComputeAt + interval;
  }
  return changes;
}

function computeAt(runtime: JobRuntime, view: ItemView, at: number): ItemChange[] {
  const { ctx } = runtime;
  const horizon = at - ctx.recipe.computeWindowMs;
  const zoneAt: ZoneAt = (floor, x, y) => ctx.locator?.(floor, x, y) ?? FACILITY;
  const changes: ItemChange[] = [];
  for (const [epc, list] of runtime.samples) {
    const kept = list.filter((s) => s.time > horizon);
    if (kept.length === 0) {
      runtime.samples.delete(epc);
      continue;
    }
    runtime.samples.set(epc, kept);
    // Samples after `at` arrived before a late tick; they belong to a later computation.
    const window = kept.filter((s) => s.time <= at);
    if (window.length === 0) continue;
    const estimate = locate(window, zoneAt, zoneHeld(view.get(epc), ctx));
    const next: Position = { zone: estimate.zone, floor: estimate.floor, facility: ctx.facility, x: estimate.x, y: estimate.y };
    const change = observe(view, ctx, epc, estimate.tid, estimate.time, next, movedLocation);
    if (change !== undefined) changes.push(change);
  }
  return changes;
}

/** The zone the item is in for this job's facility: the window must clearly say otherwise to move it (estimate.ts). */
function zoneHeld(prev: ItemState | undefined, ctx: JobContext): string | undefined {
  return prev === undefined || prev.zone === ABSENT || prev.facility !== ctx.facility ? undefined : prev.zone;
}

/**
 * Compared with the last reported location, not the last computed one, so a
 * slow drift is reported once it adds up. Another floor or facility is always
 * a move. A move below the minimum is not reported even across a zone border:
 * the minimum exists to keep estimate noise out of the history.
 */
export function movedEnough(prev: ItemState, next: Position, minimum: number): boolean {
  if (prev.floor !== next.floor || prev.facility !== next.facility || prev.x === null || prev.y === null) return true;
  const distance = Math.hypot((next.x ?? 0) - prev.x, (next.y ?? 0) - prev.y);
  return minimum === 0 ? distance > 0 : distance >= minimum;
}

const movedLocation = (prev: ItemState, next: Position, ctx: JobContext): boolean => movedEnough(prev, next, ctx.recipe.minimumMovementInMeters);
