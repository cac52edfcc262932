// Random scenarios (seeded, so a failure reproduces): several facilities,
// both job types, shared and isolated jobs, reads and ticks interleaved.
import { expect } from 'chai';
import { writesHistory, type ItemChange } from '../../src/engine';
import { scenario } from './scenarios';

/** History chains live per view: isolated jobs have their own. */
const chainKey = (c: ItemChange): string => `${c.jobId === 'loc-iso' ? 'loc-iso' : 'shared'}/${c.epc}`;

describe('engine properties', () => {
  it('given the same inputs, then the same changes and the same item states (determinism)', () => {
    const a = scenario(42);
    const b = scenario(42);
    expect(a.changes.length).to.be.greaterThan(20);
    expect(b.changes).to.deep.equal(a.changes);
    expect([...b.state.shared]).to.deep.equal([...a.state.shared]);
    expect([...(b.state.isolated.get('loc-iso') ?? [])]).to.deep.equal([...(a.state.isolated.get('loc-iso') ?? [])]);
  });

  for (let seed = 1; seed <= 25; seed++) {
    it(`seed ${seed}: every history chain starts at ABSENT, links up, never repeats a zone and never runs backwards`, () => {
      const h = scenario(seed);
      const chains = new Map<string, ItemChange[]>();
      for (const c of h.history()) chains.set(chainKey(c), [...(chains.get(chainKey(c)) ?? []), c]);
      expect(chains.size).to.be.greaterThan(0);
      for (const [key, chain] of chains) {
        expect(chain[0]?.fromZone, key).to.equal('ABSENT');
        expect(chain[0]?.kind, key).to.equal('FIRST_SEEN');
        chain.forEach((c, i) => {
          expect(`${c.fromZone}@${String(c.fromFacility)}`, `${key} #${i}`).to.not.equal(`${c.toZone}@${String(c.toFacility)}`);
          const prev = chain[i - 1];
          if (prev === undefined) return;
          expect([c.fromZone, c.fromFacility], `${key} #${i}`).to.deep.equal([prev.toZone, prev.toFacility]);
          expect(c.observationTime, `${key} #${i}`).to.be.at.least(prev.observationTime);
        });
      }
      // Every change of an item, history or not, describes it as it was: from = the previous to.
      for (const c of h.changes.filter((x) => !writesHistory(x.kind))) expect(c.fromZone).to.equal(c.toZone);
    });
  }

  for (let seed = 1; seed <= 25; seed++) {
    it(`seed ${seed}: the expiry index gives the same changes and item states as scanning every item`, () => {
      const opts = { epcs: 60, endJobs: true };
      const byIndex = scenario(seed, 1500, { ...opts, expiry: 'index' });
      const byScan = scenario(seed, 1500, { ...opts, expiry: 'scan' });
      expect(byScan.changes.filter((c) => c.kind === 'EXPIRED').length).to.be.greaterThan(5);
      expect(byIndex.changes).to.deep.equal(byScan.changes);
      expect([...byIndex.state.shared]).to.deep.equal([...byScan.state.shared]);
      expect([...byIndex.state.isolated.keys()]).to.deep.equal([...byScan.state.isolated.keys()]);
      for (const [jobId, view] of byScan.state.isolated) expect([...(byIndex.state.isolated.get(jobId) ?? [])]).to.deep.equal([...view]);
    });
  }
});
