// Random scenarios (seeded, so a failure reproduces): several facilities,
// both job types, shared and isolated jobs, reads and ticks interleaved.
import { expect } from 'chai';
import { endJob, writesHistory, type ExpiryStrategy, type ItemChange, type JobContext } from '../../src/engine';
import { mulberry32 } from '../../src/simulator/prng';
import { Harness, inventoryRecipe, job, locationRecipe, rect, reader, zoneMap } from './fixtures';

function jobsOf(): JobContext[] {
  const north = zoneMap('North', rect('A', '1', 0, 0, 10, 10), rect('B', '1', 10, 0, 20, 10), rect('A', '2', 0, 0, 20, 10));
  const readers = { n1: reader(5, 5, '1'), n2: reader(15, 5, '1', { antennaZones: { '2': 'Gate' } }), n3: reader(5, 5, '2'), n4: reader(30, 5, '1', { readerZone: 'Dock' }) };
  return [
    job('inv-north', 'North', inventoryRecipe({ tagExpiryMs: 30_000, tagHeartbeatMs: 60_000 }), { readers, map: north }),
    job('loc-north', 'North', locationRecipe({ tagExpiryMs: 20_000, minimumMovementInMeters: 0.5, reportingIntervalMs: 500 }), { readers, map: north }),
    job('inv-south', 'South', inventoryRecipe({ tagExpiryMs: 40_000 }), { readers: { s1: reader(1, 1, null), s2: reader(2, 2, null, { readerZone: 'Bay' }) } }),
    job('loc-iso', 'North', locationRecipe({ tagExpiryMs: 15_000, minimumMovementInMeters: 0 }), { readers, map: north, useOtherJobData: false }),
  ];
}

interface ScenarioOptions {
  readonly expiry?: ExpiryStrategy;
  /** More EPCs than the default five, so expiry buckets hold several items. */
  readonly epcs?: number;
  /** Now and then a job ends (its items stop expiring until another job reads them). */
  readonly endJobs?: boolean;
}

function scenario(seed: number, steps = 400, o: ScenarioOptions = {}): Harness {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const jobs = jobsOf();
  const epcs = Array.from({ length: o.epcs ?? 5 }, (_, i) => `E${i + 1}`);
  const h = new Harness(o.expiry);
  let now = 0;
  for (let i = 0; i < steps; i++) {
    now += rnd() < 0.1 ? 10 + rnd() * 40 : rnd() * 3;
    if (o.endJobs === true && rnd() < 0.01) {
      endJob(h.state, pick(jobs).jobId);
      continue;
    }
    if (rnd() < 0.3) {
      h.tick(now);
      continue;
    }
    const ctx = pick(jobs);
    const readerName = pick([...ctx.readers.keys()]);
    const seen = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => ({
      epc: pick(epcs),
      t: now - rnd() * 2, // some reads are late
      antenna: pick([1, 2, 1002]),
      rssi: -30 - Math.floor(rnd() * 50),
      x: rnd() * 35,
      y: rnd() * 10,
    }));
    h.read(ctx, readerName, seen, now);
  }
  return h;
}

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
