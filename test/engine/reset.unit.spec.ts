// Item reset in the engine state (src/engine/reset.ts) and in the as-of fold
// (src/items/asof.ts): the facility's items go from every view and its expiry
// index, its jobs' pending reads go, another facility is untouched.
import { expect } from 'chai';
import { applyChange } from '../../src/engine/apply';
import { resetFacility } from '../../src/engine/reset';
import { emptyState, runtimeOf } from '../../src/engine/state';
import { AsOfFold } from '../../src/items/asof';
import { change, T0 } from '../queues/support';
import { inventoryRecipe, job } from './fixtures';

describe('item reset (engine state, as-of fold)', () => {
  const inF = (epc: string, jobId: string) => change({ kind: 'FIRST_SEEN', epc, jobId, fromZone: 'ABSENT', toZone: 'DOCK', fromFacility: null, toFacility: 'F' });
  const inG = (epc: string, jobId: string) => change({ kind: 'FIRST_SEEN', epc, jobId, fromZone: 'ABSENT', toZone: 'DOCK', fromFacility: null, toFacility: 'G' });

  it('drops the facility from the shared and isolated views (expiry index too) and its jobs\' pending reads', () => {
    const state = emptyState();
    const jobF = runtimeOf(state, job('job-f', 'F', inventoryRecipe({ tagExpiryMs: 1000 })));
    const jobG = runtimeOf(state, job('job-g', 'G', inventoryRecipe({ tagExpiryMs: 1000 })));
    applyChange(state, inF('A1', 'job-f'), true);
    applyChange(state, inG('B1', 'job-g'), true);
    applyChange(state, inF('A2', 'job-iso'), false);
    const pending = [{ time: T0, reader: 'r', antennaId: 1, peakRssi: -50, tid: null }];
    jobF.candidates.set('A3', pending);
    jobG.candidates.set('B3', pending);

    expect(resetFacility(state, 'F')).to.equal(2);
    expect([...state.shared.keys()]).to.deep.equal(['B1']);
    expect(state.isolated.get('job-iso')?.size).to.equal(0);
    expect(state.shared.dueBy('job-f', Number.MAX_SAFE_INTEGER)).to.deep.equal([]);
    expect(state.shared.dueBy('job-g', Number.MAX_SAFE_INTEGER).map((i) => i.epc)).to.deep.equal(['B1']);
    expect(jobF.candidates.size).to.equal(0);
    expect([...jobG.candidates.keys()]).to.deep.equal(['B3']);
    expect(state.jobs.size, 'the jobs keep running').to.equal(2);
  });

  it('as-of: a reset appended at or before asOf drops the items folded before it; one after asOf does not count', () => {
    const events = [
      { at: T0, changes: [inF('A1', 'j'), inG('B1', 'j')] },
      { at: T0 + 10, changes: [], reset: { facility: 'F' } },
      { at: T0 + 20, changes: [{ ...inF('A2', 'j'), observationTime: T0 + 20 }] },
    ];
    const fold = (asOf: number): string[] => {
      const f = new AsOfFold(asOf, undefined);
      for (const e of events) f.add(e);
      return [...f.itemsOf('F', undefined), ...f.itemsOf('G', undefined)].map((i) => i.epc);
    };
    expect(fold(T0 + 5)).to.deep.equal(['A1', 'B1']);
    expect(fold(T0 + 30)).to.deep.equal(['A2', 'B1']);
  });
});
