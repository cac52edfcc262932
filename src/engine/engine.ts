// The item engine's two entry points. Both take the time from the caller (an
// injected clock), never from the system, and update the state in place
// (state.ts explains why); the returned changes are the only output.
import type { Observation, TagsReportedData } from '../agents/events';
import { ingestInventory, pruneCandidates } from './inventory';
import { addSamples, computeDue } from './location';
import { runtimeOf, viewOf } from './state';
import { expire } from './transition';
import { ABSENT, type EngineResult, type EngineState, type ItemChange, type ItemView, type JobContext, type JobRuntime } from './types';

/**
 * Applies one TagsReported report of `ctx`'s job at time `now`, then runs
 * everything due by `now` (tick). The report is applied first so a late
 * report keeps its tags from expiring instead of expiring and re-sighting them.
 */
export function ingest(state: EngineState, report: TagsReportedData, ctx: JobContext, now: number): EngineResult {
  if (report.jobId !== ctx.jobId) throw new Error(`report of job ${report.jobId} given with the context of job ${ctx.jobId}`);
  const runtime = runtimeOf(state, ctx);
  const view = viewOf(state, ctx);
  // Reader clocks may run ahead; a read is never later than its arrival.
  const timeOf = (o: Observation): number => Math.min(Date.parse(o.lastSeen), now);
  const changes: ItemChange[] = [];
  switch (ctx.recipe.type) {
    case 'INVENTORY':
      changes.push(...ingestInventory(runtime, view, report.reader, report.observations, timeOf, now));
      break;
    case 'LOCATION':
      addSamples(runtime, report.reader, report.observations, timeOf, now);
      break;
    default: {
      const never: never = ctx.recipe.type;
      throw new Error(`unknown job type ${String(never)}`);
    }
  }
  changes.push(...tick(state, now).changes);
  return { state, changes };
}

/**
 * Advances time to `now`: LOCATION computations due by then, in order, then
 * expiry of tags not seen for their job's tagExpiryDuration. Call it on a
 * timer (e.g. every 500 ms) so absence is noticed without reads.
 */
export function tick(state: EngineState, now: number): EngineResult {
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
  expireView(state, state.shared, now, changes);
  for (const view of state.isolated.values()) expireView(state, view, now, changes);
  return { state, changes };
}

/**
 * An item expires by the recipe of the job that last saw it, while that job
 * runs. Reads still waiting in the job's compute window count as seen.
 * A full scan: fine for the groundwork, an expiry index is left to the wiring.
 */
function expireView(state: EngineState, view: ItemView, now: number, out: ItemChange[]): void {
  for (const item of view.values()) {
    if (item.zone === ABSENT) continue;
    const runtime = state.jobs.get(item.jobId);
    const expiryMs = runtime?.ctx.recipe.tagExpiryMs;
    if (runtime === undefined || expiryMs === undefined) continue;
    const lastSeen = Math.max(item.lastSeen, pendingLastSeen(runtime, item.epc));
    if (now - lastSeen < expiryMs) continue;
    out.push(expire(view, runtime.ctx, { ...item, lastSeen }, expiryMs));
  }
}

function pendingLastSeen(runtime: JobRuntime, epc: string): number {
  const pending = runtime.samples.get(epc) ?? runtime.candidates.get(epc) ?? [];
  return pending.reduce((max, s) => Math.max(max, s.time), -Infinity);
}
