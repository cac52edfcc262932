import { expect } from 'chai';
import { FACILITY, locate, median } from '../../src/engine';
import { at, brief, Harness, job, locationRecipe, rect, reader, zoneMap } from './fixtures';

// Floor 1: Aisle (0..10 x 0..10), Cafe (10..20); floor 2: Office (0..10). Readers on each floor.
const map = zoneMap('West', rect('Aisle', '1', 0, 0, 10, 10), rect('Cafe', '1', 10, 0, 20, 10), rect('Office', '2', 0, 0, 10, 10));
const readers = { xa: reader(5, 5, '1'), xb: reader(5, 5, '2') };
const loc = (over = {}) => job('job-loc', 'West', locationRecipe(over), { readers, map });

describe('engine LOCATION', () => {
  it('given samples, then nothing is reported before the next reporting interval; then the median of the window', () => {
    const h = new Harness();
    const ctx = loc();
    // Four good estimates around (4, 4) and one outlier far away.
    const seen = [[4, 4], [4.2, 3.8], [3.8, 4.2], [4.1, 4], [19, 9]].map(([x, y], i) => ({ epc: 'L1', t: 1 + i * 0.5, x, y }));
    expect(h.read(ctx, 'xa', seen, 3.1)).to.deep.equal([]);
    const [c] = h.tick(5);
    expect(c).to.deep.include({ kind: 'FIRST_SEEN', fromZone: 'ABSENT', toZone: 'Aisle', toFloor: '1', toFacility: 'West', toX: 4.1, toY: 4, fromX: null });
    expect(c?.observationTime).to.equal(at(3));
  });

  it('given reportingInterval 0, then the location is computed every 500 ms', () => {
    const h = new Harness();
    const ctx = loc({ reportingIntervalMs: 500 });
    h.read(ctx, 'xa', [{ epc: 'L1', t: 0.1, x: 1, y: 1 }], 0.1);
    expect(h.tick(0.4)).to.deep.equal([]);
    expect(h.tick(0.5).map(brief)).to.deep.equal(['L1 FIRST_SEEN ABSENT>Aisle']);
  });

  it('given minimumMovementInMeters 1, then a smaller move is not reported; a drift adding up to 1 m is', () => {
    const h = new Harness();
    const ctx = loc({ computeWindowMs: 5_000 });
    h.read(ctx, 'xa', [{ epc: 'L1', t: 1, x: 9, y: 5 }]);
    h.tick(5);
    h.read(ctx, 'xa', [{ epc: 'L1', t: 6, x: 9.6, y: 5 }]);
    h.tick(10); // 0.6 m: below the minimum, even though nothing else changed
    h.read(ctx, 'xa', [{ epc: 'L1', t: 11, x: 10.5, y: 5 }]);
    h.tick(15); // 1.5 m from the last reported location, across the Aisle/Cafe border
    expect(h.changes.map(brief)).to.deep.equal(['L1 FIRST_SEEN ABSENT>Aisle', 'L1 ZONE_CHANGE Aisle>Cafe']);
    expect(h.changes[1]).to.deep.include({ fromX: 9, toX: 10.5 });
  });

  it('given a move below the minimum across a zone border, then no zone change (the minimum keeps noise out)', () => {
    const h = new Harness();
    const ctx = loc({ computeWindowMs: 5_000 });
    h.read(ctx, 'xa', [{ epc: 'L1', t: 1, x: 9.8, y: 5 }]);
    h.read(ctx, 'xa', [{ epc: 'L1', t: 6, x: 10.2, y: 5 }]);
    h.tick(10);
    expect(h.changes.map(brief)).to.deep.equal(['L1 FIRST_SEEN ABSENT>Aisle']);
  });

  it('given minimumMovementInMeters 0, then any change is reported, a move within a zone as MOVED', () => {
    const h = new Harness();
    const ctx = loc({ minimumMovementInMeters: 0, computeWindowMs: 5_000 });
    h.read(ctx, 'xa', [{ epc: 'L1', t: 1, x: 2, y: 2 }]);
    h.read(ctx, 'xa', [{ epc: 'L1', t: 6, x: 2.1, y: 2 }]);
    h.read(ctx, 'xa', [{ epc: 'L1', t: 11, x: 2.1, y: 2 }]);
    h.tick(15);
    expect(h.changes.map(brief)).to.deep.equal(['L1 FIRST_SEEN ABSENT>Aisle', 'L1 MOVED Aisle>Aisle']);
    expect(h.history('L1')).to.have.length(1);
  });

  it("given the same x/y, then the zone is the polygon on the reader's floor, else FACILITY", () => {
    const h = new Harness();
    const ctx = loc();
    h.read(ctx, 'xb', [{ epc: 'UP', t: 1, x: 5, y: 5 }, { epc: 'OUT', t: 1, x: 15, y: 5 }]);
    h.tick(5);
    expect(h.changes.map(brief)).to.deep.equal(['UP FIRST_SEEN ABSENT>Office', `OUT FIRST_SEEN ABSENT>${FACILITY}`]);
    expect(h.changes.map((c) => c.toFloor)).to.deep.equal(['2', '2']);
  });

  it('given old samples, when they leave the compute window, then the newer ones decide', () => {
    const h = new Harness();
    const ctx = loc({ computeWindowMs: 10_000 });
    h.read(ctx, 'xa', [1, 2, 3].map((t) => ({ epc: 'L1', t, x: 2, y: 2 })));
    h.read(ctx, 'xa', [{ epc: 'L1', t: 8, x: 15, y: 5 }]);
    h.tick(10); // three samples at Aisle, one at Cafe: still Aisle
    h.read(ctx, 'xa', [{ epc: 'L1', t: 12, x: 15, y: 5 }]);
    h.tick(15); // samples 1-3 left the window
    expect(h.changes.map(brief)).to.deep.equal(['L1 FIRST_SEEN ABSENT>Aisle', 'L1 ZONE_CHANGE Aisle>Cafe']);
  });

  it('given the same reports, then ticking every 100 ms or once gives the same changes', () => {
    const run = (step: number) => {
      const h = new Harness();
      const ctx = loc({ minimumMovementInMeters: 0.5 });
      for (let t = 0; t < 30; t += 2) h.read(ctx, 'xa', [{ epc: 'L1', t, x: t / 2, y: 5 }], t);
      if (step > 0) h.tickEvery(step, 28, 60);
      else h.tick(60);
      return h.changes;
    };
    expect(run(0.1)).to.deep.equal(run(0));
    expect(run(0).length).to.be.greaterThan(3);
  });

  describe('robust average', () => {
    it('median of odd and even counts', () => {
      expect(median([3, 1, 2])).to.equal(2);
      expect(median([4, 1, 3, 2])).to.equal(2.5);
    });

    it('the floor with most samples, ties to the newest sample; tid from the newest sample that has one', () => {
      const s = (time: number, floor: string, tid: string | null = null) => ({ time, x: time, y: 0, floor, tid });
      expect(locate([s(1, '1', 'T1'), s(2, '2'), s(3, '1'), s(4, '2')])).to.deep.equal({ x: 3, y: 0, floor: '2', tid: 'T1', time: 4 });
      expect(locate([s(1, '1'), s(2, '1'), s(3, '2', 'T3')])).to.deep.equal({ x: 1.5, y: 0, floor: '1', tid: 'T3', time: 3 });
    });
  });
});
