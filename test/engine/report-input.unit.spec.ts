// The engine's column input (EngineTagsReported, what the worker decodes) and
// its indexed compute window must change nothing: the same random scenarios
// fed as decoded observations and as stored columns give the same changes and
// states, and the pending INVENTORY reads after every step are those of the
// straightforward rule (every read of the window kept per EPC, a reader and
// antenna's newer read replacing its older one, the whole window pruned at
// every tick).
import { expect } from 'chai';
import type { TagsReportedData } from '../../src/agents/events';
import { toColumns } from '../../src/agents/report-columns';
import { emptyState, endJob, ingest, tick, type JobContext } from '../../src/engine';
import type { InventoryCandidate } from '../../src/engine/types';
import { EngineTagsReported, type EngineReport } from '../../src/engine/report';
import { at, Harness, report } from './fixtures';
import { runSteps, scenario, scenarioSteps, type Step } from './scenarios';

/** The stored form of a report, read back as the worker reads it. */
function stored(data: TagsReportedData): EngineReport {
  const decoded = EngineTagsReported.decode(JSON.parse(JSON.stringify(toColumns(data))));
  if (decoded._tag === 'Left') throw new Error('columns did not decode');
  return decoded.right;
}

const stronger = (a: InventoryCandidate, b: InventoryCandidate): InventoryCandidate => {
  if (a.peakRssi !== b.peakRssi) return a.peakRssi > b.peakRssi ? a : b;
  if (a.time !== b.time) return a.time > b.time ? a : b;
  if (a.reader !== b.reader) return a.reader < b.reader ? a : b;
  return a.antennaId <= b.antennaId ? a : b;
};

/** The pending reads by the plain rule, job -> EPC -> reads. */
class ReferenceWindow {
  readonly jobs = new Map<string, Map<string, InventoryCandidate[]>>();

  read(ctx: JobContext, data: TagsReportedData, now: number): void {
    if (ctx.recipe.type !== 'INVENTORY') return;
    const window = this.jobs.get(ctx.jobId) ?? new Map<string, InventoryCandidate[]>();
    this.jobs.set(ctx.jobId, window);
    const best = new Map<string, InventoryCandidate>();
    for (const o of data.observations) {
      const c: InventoryCandidate = { time: Math.min(Date.parse(o.lastSeen), now), reader: data.reader, antennaId: o.antennaId, peakRssi: o.peakRssi, tid: o.tid };
      const known = best.get(o.epc);
      best.set(o.epc, known === undefined ? c : { ...stronger(known, c), time: Math.max(known.time, c.time) });
    }
    const horizon = now - ctx.recipe.computeWindowMs;
    for (const [epc, c] of best) {
      const kept = (window.get(epc) ?? []).filter((k) => k.time > horizon && !(k.reader === c.reader && k.antennaId === c.antennaId));
      window.set(epc, [...kept, c]);
    }
  }

  prune(jobs: ReadonlyMap<string, { ctx: JobContext }>, now: number): void {
    for (const [jobId, window] of this.jobs) {
      const ctx = jobs.get(jobId)?.ctx;
      if (ctx === undefined) continue;
      const horizon = now - ctx.recipe.computeWindowMs;
      for (const [epc, list] of window) {
        const kept = list.filter((c) => c.time > horizon);
        if (kept.length === 0) window.delete(epc);
        else window.set(epc, kept);
      }
    }
  }
}

function runColumns(steps: readonly Step[], check?: (state: ReturnType<typeof emptyState>, ref: ReferenceWindow) => void) {
  const state = emptyState();
  const ref = new ReferenceWindow();
  const changes = [];
  for (const step of steps) {
    if (step.kind === 'tick') {
      changes.push(...tick(state, at(step.now)).changes);
      ref.prune(state.jobs, at(step.now));
    } else if (step.kind === 'end') {
      endJob(state, step.jobId);
      ref.jobs.delete(step.jobId);
    } else {
      const data = report(step.ctx, step.readerName, step.seen);
      const now = at(step.now);
      ref.read(step.ctx, data, now);
      changes.push(...ingest(state, stored(data), step.ctx, now).changes);
      ref.prune(state.jobs, now);
    }
    check?.(state, ref);
  }
  return { state, changes };
}

describe('engine input as stored columns', () => {
  for (const seed of [1, 2, 3, 5, 8, 13, 21]) {
    it(`seed ${seed}: columns give the same changes and item states as decoded observations`, () => {
      const steps = scenarioSteps(seed, 400, { epcs: 12, endJobs: true });
      const objects = runSteps(new Harness(), steps);
      const columns = runColumns(steps);
      expect(columns.changes.length).to.be.greaterThan(20);
      expect(columns.changes).to.deep.equal(objects.changes);
      expect([...columns.state.shared]).to.deep.equal([...objects.state.shared]);
      expect([...(columns.state.isolated.get('loc-iso') ?? [])]).to.deep.equal([...(objects.state.isolated.get('loc-iso') ?? [])]);
    });

    it(`seed ${seed}: the pending INVENTORY reads after every step are those of the plain rule (same EPCs, order and reads)`, () => {
      let checked = 0;
      runColumns(scenarioSteps(seed, 400, { epcs: 12 }), (state, ref) => {
        for (const [jobId, runtime] of state.jobs) {
          if (runtime.ctx.recipe.type !== 'INVENTORY') continue;
          expect([...runtime.candidates], jobId).to.deep.equal([...(ref.jobs.get(jobId) ?? [])]);
          checked += runtime.candidates.size;
        }
      });
      expect(checked).to.be.greaterThan(100);
    });
  }

  it('the default scenario gives the same output through both inputs', () => {
    const steps = scenarioSteps(42);
    expect(runColumns(steps).changes).to.deep.equal(scenario(42).changes);
  });
});
