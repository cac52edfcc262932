import { expect } from 'chai';
import { FACILITY, LOCATION_ZONE_HYSTERESIS, locate, median, type ZoneAt } from '../../src/engine';
import { zoneLocator } from '../../src/zonemaps/lookup';
import { at, brief, Harness, job, locationRecipe, rect, reader, zoneMap } from './fixtures';

// Floor 1: Aisle (0..10 x 0..10), Cafe (10..20); floor 2: Office (0..10). Readers on each floor.
const map = zoneMap('West', rect('Aisle', '1', 0, 0, 10, 10), rect('Cafe', '1', 10, 0, 20, 10), rect('Office', '2', 0, 0, 10, 10));
const readers = { xa: reader(5, 5, '1'), xb: reader(5, 5, '2') };
const loc = (over = {}) => job('job-loc', 'West', locationRecipe(over), { readers, map });

/** The engine's zone lookup over a map: its zone, else FACILITY. */
const zoneAtOf = (map: ReturnType<typeof zoneMap>): ZoneAt => {
  const locator = zoneLocator(map);
  return (floor, x, y) => locator(floor, x, y) ?? FACILITY;
};

describe('engine LOCATION', () => {
  it('given samples, then nothing is reported before the next reporting interval; then the median of the estimates in the zone most of them fall in', () => {
    const h = new Harness();
    const ctx = loc();
    // Four good estimates around (4, 4) and one outlier far away, in Cafe: the newest, and left out.
    const seen = [[4, 4], [4.2, 3.8], [3.8, 4.2], [4.1, 4], [19, 9]].map(([x, y], i) => ({ epc: 'L1', t: 1 + i * 0.5, x, y }));
    expect(h.read(ctx, 'xa', seen, 3.1)).to.deep.equal([]);
    const [c] = h.tick(5);
    expect(c).to.deep.include({ kind: 'FIRST_SEEN', fromZone: 'ABSENT', toZone: 'Aisle', toFloor: '1', toFacility: 'West', toX: 4.05, toY: 4, fromX: null });
    // The newest estimate in Aisle: when the tag was last seen there.
    expect(c?.observationTime).to.equal(at(2.5));
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

  describe('moves between two readers\' zones', () => {
    // Left and Right with unzoned floor between them, each under a reader of its own.
    const gapMap = zoneMap('West', rect('Left', '1', 0, 0, 10, 10), rect('Right', '1', 16, 0, 26, 10));
    const pair = (over = {}) => job('job-pair', 'West', locationRecipe({ computeWindowMs: 4_000, reportingIntervalMs: 1_000, ...over }), { readers: { rl: reader(5, 5, '1'), rr: reader(21, 5, '1') }, map: gapMap });
    /** Each reader's estimate of one tag every second from 1 s to `until`, ticking after each report: `x(reader, t)` (null: not read). */
    const drive = (h: Harness, ctx: ReturnType<typeof pair>, epc: string, until: number, x: (reader: string, t: number) => number | null): void => {
      for (let t = 1; t <= until; t++) {
        for (const [name, lag] of [['rl', 0.4], ['rr', 0.2]] as const) {
          const at = x(name, t - lag);
          if (at !== null) h.read(ctx, name, [{ epc, t: t - lag, x: at, y: 5 }], t - lag + 0.05);
        }
        h.tick(t);
      }
    };
    const between = (h: Harness): number[] => h.changes.map((c) => c.toX ?? 0).filter((x) => x > 10 && x < 16);

    it('given a move while both readers see the tag, when the window holds estimates of both places and one between, then one zone change', () => {
      const h = new Harness();
      // Both readers estimate where the tag is; the report whose window the move fell into averages both places (x 13).
      // A 3 s window then holds two estimates of Left, two between and two of Right: their median is x 13.
      drive(h, pair({ computeWindowMs: 3_000 }), 'M1', 20, (_r, t) => (t < 9.5 ? 4 + (t % 2) * 0.2 : t < 10.5 ? 13 : 22 - (t % 2) * 0.2));
      expect(h.history('M1').map(brief)).to.deep.equal(['M1 FIRST_SEEN ABSENT>Left', 'M1 ZONE_CHANGE Left>Right']);
      expect(between(h), 'locations between the zones').to.deep.equal([]);
      expect(h.history('M1')[1]).to.deep.include({ fromZone: 'Left', toZone: 'Right' });
    });

    it('given a move from one reader\'s field into the other\'s, when the window splits evenly between them, then one zone change', () => {
      const h = new Harness();
      // rl sees the tag only in Left, rr only in Right: a 4 s window holds two estimates of each, whose median is x 13.
      drive(h, pair(), 'M2', 20, (r, t) => (r === 'rl' ? (t < 10 ? 4 : null) : t >= 10 ? 22 : null));
      expect(h.history('M2').map(brief)).to.deep.equal(['M2 FIRST_SEEN ABSENT>Left', 'M2 ZONE_CHANGE Left>Right']);
      expect(between(h)).to.deep.equal([]);
    });

    it('given two readers placing a still tag in their own zones about as often, then it stays in the zone it was first placed in', () => {
      const h = new Harness();
      // rl puts it at 9 (Left), rr at 17 (Right); each misses one report in three, not the same ones: the counts
      // are even (median x 13) or differ by one, from one computation to the next.
      drive(h, pair(), 'S1', 30, (r, t) => (Math.floor(t) % 3 === (r === 'rl' ? 1 : 2) ? null : r === 'rl' ? 9 : 17));
      expect(h.history('S1').map(brief)).to.deep.equal(['S1 FIRST_SEEN ABSENT>Right']); // the first window: one each, the newest rr's
      expect(between(h)).to.deep.equal([]);
    });

    it('given minimumMovementInMeters above the distance moved, then no zone change, even across the unzoned floor', () => {
      const h = new Harness();
      drive(h, pair({ minimumMovementInMeters: 20 }), 'M3', 20, (_r, t) => (t < 10 ? 4 : 22));
      expect(h.history('M3').map(brief)).to.deep.equal(['M3 FIRST_SEEN ABSENT>Left']);
    });
  });

  describe('robust average', () => {
    it('median of odd and even counts', () => {
      expect(median([3, 1, 2])).to.equal(2);
      expect(median([4, 1, 3, 2])).to.equal(2.5);
    });

    const nowhere: ZoneAt = () => FACILITY;

    it('the floor with most samples, ties to the newest sample; tid from the newest sample that has one', () => {
      const s = (time: number, floor: string, tid: string | null = null) => ({ time, x: time, y: 0, floor, tid });
      expect(locate([s(1, '1', 'T1'), s(2, '2'), s(3, '1'), s(4, '2')], nowhere)).to.deep.equal({ x: 3, y: 0, floor: '2', zone: FACILITY, tid: 'T1', time: 4 });
      expect(locate([s(1, '1'), s(2, '1'), s(3, '2', 'T3')], nowhere)).to.deep.equal({ x: 1.5, y: 0, floor: '1', zone: FACILITY, tid: 'T3', time: 2 });
    });

    const s = (time: number, x: number, y = 5) => ({ time, x, y, floor: '1', tid: null });
    // Left 0..10, Right 16..26: unzoned floor between them.
    const gapAt = zoneAtOf(zoneMap('West', rect('Left', '1', 0, 0, 10, 10), rect('Right', '1', 16, 0, 26, 10)));

    it('the zone most estimates fall in, never the median of all of them between two zones', () => {
      // Blended, the median of these is x = 13, in the unzoned floor between.
      const split = [s(1, 4), s(2, 4.5), s(3, 13), s(4, 21), s(5, 21.5), s(6, 22)];
      expect(locate(split, gapAt)).to.deep.include({ zone: 'Right', x: 21.5, time: 6 });
      // Ties go to the zone of the newest estimate when the item is in neither.
      expect(locate([s(1, 4), s(2, 21), s(3, 5), s(4, 22)], gapAt)).to.deep.include({ zone: 'Right', x: 21.5, time: 4 });
    });

    it(`the item's zone is kept unless another holds more than ${LOCATION_ZONE_HYSTERESIS} times as many estimates`, () => {
      const window = [s(1, 4), s(2, 21), s(3, 5), s(4, 22), s(5, 23)];
      expect(locate(window, gapAt, 'Left')).to.deep.include({ zone: 'Left', x: 4.5, time: 3 });
      expect(locate([...window, s(6, 24)], gapAt, 'Left')).to.deep.include({ zone: 'Left' }); // twice as many: not more
      expect(locate([...window, s(6, 24), s(7, 25)], gapAt, 'Left')).to.deep.include({ zone: 'Right', x: 23, time: 7 });
      // A zone without an estimate in the window holds nothing.
      expect(locate(window, gapAt, 'Elsewhere')).to.deep.include({ zone: 'Right' });
    });

    it('a median outside its zone (a zone that is not convex) gives way to the estimate nearest to it', () => {
      const l = { name: 'L', floor: '1', points: [[0, 0], [20, 0], [20, 4], [4, 4], [4, 20], [0, 20]].map(([x, y]) => ({ x: x!, y: y!, z: 0 })) };
      const lAt = zoneAtOf(zoneMap('West', l));
      const window = [{ ...s(1, 18, 2) }, { ...s(2, 19, 2) }, { ...s(3, 2, 18) }, { ...s(4, 2, 19) }];
      // The median (10, 10) is in the corner the L leaves out.
      expect(locate(window, lAt)).to.deep.include({ zone: 'L', x: 18, y: 2 });
      // FACILITY estimates on either side of a zone: the median lies in the zone, the position stays off it.
      expect(locate([s(1, 8, 5), s(2, 12, 5), s(3, 20, 5)], zoneAtOf(zoneMap('West', rect('Mid', '1', 10, 0, 14, 10))))).to.deep.include({ zone: FACILITY, x: 8 });
    });
  });
});
