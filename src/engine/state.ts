// Engine state: the item views and the per-job runtime. The state is owned by
// one engine and updated in place (copying a million-item map per report
// would defeat the throughput goal); "pure" here means no I/O, no clock, no
// randomness: the same inputs on an equal state give the same outputs.
import { IndexedView } from './expiry';
import type { EngineState, ItemState, ItemView, JobContext, JobRuntime } from './types';

export function emptyState(): EngineState {
  return { shared: new IndexedView<ItemState>(), isolated: new Map(), jobs: new Map() };
}

/**
 * The items a job works against. useOtherJobData=true jobs share one view, so
 * a tag seen by a previous or concurrent job is already known. A job with
 * useOtherJobData=false gets its own view, empty when it starts, and its
 * reads never reach the shared view either: an item's history chain lives in
 * one view, so a chain can never see a zone it did not itself record.
 */
export function viewOf(state: EngineState, ctx: Pick<JobContext, 'jobId' | 'useOtherJobData'>): ItemView {
  if (ctx.useOtherJobData) return state.shared;
  let view = state.isolated.get(ctx.jobId);
  if (view === undefined) {
    view = new IndexedView<ItemState>();
    state.isolated.set(ctx.jobId, view);
  }
  return view;
}

/**
 * The job's runtime, registered on its first report. The latest context wins
 * (the wiring may refresh readers or the zone map between reports); pending
 * reads are kept.
 */
export function runtimeOf(state: EngineState, ctx: JobContext): JobRuntime {
  const known = state.jobs.get(ctx.jobId);
  if (known !== undefined) {
    known.ctx = ctx;
    return known;
  }
  const runtime: JobRuntime = { ctx, candidates: new Map(), samples: new Map(), nextComputeAt: undefined };
  state.jobs.set(ctx.jobId, runtime);
  return runtime;
}

/**
 * A job ended: its pending reads and its private view go; items it left in
 * the shared view stay where they were last seen and no longer expire (no
 * running job watches them, and a new job adopts them when it reads them).
 */
export function endJob(state: EngineState, jobId: string): EngineState {
  state.jobs.delete(jobId);
  state.isolated.delete(jobId);
  return state;
}
