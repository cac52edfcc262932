// The item engine's two entry points. Both take the time from the caller (an
// injected clock), never from the system, and update the state in place
// (state.ts explains why); the returned changes are the only output.
import type { TagsReportedData } from '../agents';
import { ingestInventory, pruneCandidates } from './inventory';
import { addSamples, computeDue } from './location';
import { engineReportOf, type EngineReport } from './report';
import { runtimeOf, viewOf } from './state';
import { expire } from './transition';
import { ABSENT } from './zones';
import { type EngineResult, type EngineState, type ItemChange, type ItemState, type ItemView, type JobContext, type JobRuntime } from './types';

/**
 * Applies one TagsReported report of `ctx`'s job at time `now`, then runs
 * everything due by `now` (tick). The report is applied first so a late
 * report keeps its tags from expiring instead of expiring and re-sighting them.
 * The report comes decoded into observations (TagsReportedData) or straight
 * from the stored columns (EngineReport, what the worker reads).
 */
export function ingest(state: EngineState, data: TagsReportedData | EngineReport, ctx: JobContext, now: number, expiry: ExpiryStrategy = 'index'): EngineResult {
  if (data.jobId !== ctx.jobId) throw new Error(`report of job ${data.jobId} given with the context of job ${ctx.jobId}`);
  const report = 'observations' in data ? engineReportOf(data) : data;
  const runtime = runtimeOf(state, ctx);
  const view = viewOf(state, ctx);
  // Reader clocks may run ahead; a read is never later than its arrival.
  const { timeBase, lastSeen } = report;
  const timeOf = (i: number): number => Math.min(timeBase + lastSeen[i]!, now);
  const changes: ItemChange[] = [];
  switch (ctx.recipe.type) {
    case 'INVENTORY':
      for (const c of ingestInventory(runtime, view, report, timeOf, now)) changes.push(c);
      break;
    case 'LOCATION':
      // Computations due by the report's arrival see only the estimates that had arrived by then: a
      // window closes when its time comes, not when a later report happens to move time on.
      for (const c of computeDue(runtime, view, now)) changes.push(c);
      addSamples(runtime, report, timeOf, now);
      break;
    default: {
      const never: never = ctx.recipe.type;
      throw new Error(`unknown job type ${String(never)}`);
    }
  }
  for (const c of tick(state, now, expiry).changes) changes.push(c);
  return { state, changes };
}

/**
 * Advances time to `now`: LOCATION computations due by then, in order, then
 * expiry of tags not seen for their job's tagExpiryDuration. Call it on a
 * timer (e.g. every 500 ms) so absence is noticed without reads.
 */
export function tick(state: EngineState, now: number, expiry: ExpiryStrategy = 'index'): EngineResult {
  const changes: ItemChange[] = [];
  for (const runtime of state.jobs.values()) {
    switch (runtime.ctx.recipe.type) {
      case 'INVENTORY':
        pruneCandidates(runtime, now);
        break;
      case 'LOCATION':
        changes.push(...computeDue(runtime, viewOf(state, runtime.ctx), now));
        break;
      default: {
        const never: never = runtime.ctx.recipe.type;
        throw new Error(`unknown job type ${String(never)}`);
      }
    }
  }
  const expireView = expiry === 'index' ? expireByIndex : expireByScan;
  expireView(state, state.shared, now, changes);
  for (const view of state.isolated.values()) expireView(state, view, now, changes);
  return { state, changes };
}

/**
 * How tick finds expired items: 'index' (the default) reads the expiry index
 * of each view; 'scan' looks at every item. Both give the same changes in the
 * same order (property-tested); 'scan' is kept as the reference for that test
 * and for the benchmark.
 */
export type ExpiryStrategy = 'index' | 'scan';

/**
 * An item expires by the recipe of the job that last saw it, while that job
 * runs. Reads still waiting in the job's compute window count as seen.
 * Within a view, expiries come out by expiry time, then EPC: an order that
 * does not depend on how the view or its index were built (a view restored
 * from a snapshot gives the same output).
 */
function expireByIndex(state: EngineState, view: ItemView, now: number, out: ItemChange[]): void {
  const due: Due[] = [];
  for (const jobId of [...view.indexedJobs()]) {
    const runtime = state.jobs.get(jobId);
    const expiryMs = runtime?.ctx.recipe.tagExpiryMs;
    if (runtime === undefined || expiryMs === undefined) continue;
    for (const item of view.dueBy(jobId, now - expiryMs)) collectDue(runtime, item, expiryMs, now, due);
  }
  expireAll(view, due, out);
}

function expireByScan(state: EngineState, view: ItemView, now: number, out: ItemChange[]): void {
  const due: Due[] = [];
  for (const item of view.values()) {
    if (item.zone === ABSENT) continue;
    const runtime = state.jobs.get(item.jobId);
    const expiryMs = runtime?.ctx.recipe.tagExpiryMs;
    if (runtime === undefined || expiryMs === undefined) continue;
    collectDue(runtime, item, expiryMs, now, due);
  }
  expireAll(view, due, out);
}

interface Due {
  readonly runtime: JobRuntime;
  readonly item: ItemState;
  readonly expiryMs: number;
}

function collectDue(runtime: JobRuntime, item: ItemState, expiryMs: number, now: number, due: Due[]): void {
  const lastSeen = Math.max(item.lastSeen, pendingLastSeen(runtime, item.epc));
  if (now - lastSeen < expiryMs) return;
  due.push({ runtime, item: lastSeen === item.lastSeen ? item : { ...item, lastSeen }, expiryMs });
}

function expireAll(view: ItemView, due: Due[], out: ItemChange[]): void {
  due.sort((a, b) => a.item.lastSeen + a.expiryMs - (b.item.lastSeen + b.expiryMs) || (a.item.epc < b.item.epc ? -1 : a.item.epc > b.item.epc ? 1 : 0));
  for (const d of due) out.push(expire(view, d.runtime.ctx, d.item, d.expiryMs));
}

function pendingLastSeen(runtime: JobRuntime, epc: string): number {
  const pending = runtime.samples.get(epc) ?? runtime.candidates.get(epc) ?? [];
  return pending.reduce((max, s) => Math.max(max, s.time), -Infinity);
}
