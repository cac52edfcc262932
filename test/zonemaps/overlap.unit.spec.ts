import { expect } from 'chai';
import { placement, polygonOf, type Vec } from '../../src/zonemaps/geometry';
import { interiorPoint, polygonsOverlap } from '../../src/zonemaps/overlap';

const pts = (...xy: Array<[number, number]>): Vec[] => xy.map(([x, y]) => ({ x, y }));
const rect = (x0: number, y0: number, x1: number, y1: number): Vec[] => polygonOf(pts([x0, y0], [x1, y1]));
// The 4x4 square minus its top-right 2x2 quarter.
const ell = pts([0, 0], [4, 0], [4, 2], [2, 2], [2, 4], [0, 4]);
// A U: 6 wide, 4 high, with a 2x2 notch open at the top between x=2 and x=4.
const you = pts([0, 0], [6, 0], [6, 4], [4, 4], [4, 2], [2, 2], [2, 4], [0, 4]);

/** Checks both argument orders: the relation is symmetric. */
function overlap(a: Vec[], b: Vec[]): boolean {
  const ab = polygonsOverlap(a, b);
  expect(polygonsOverlap(b, a), 'symmetric').to.equal(ab);
  return ab;
}

describe('zonemaps/overlap polygonsOverlap', () => {
  describe('touching is allowed', () => {
    it('rectangles sharing a whole edge', () => {
      expect(overlap(rect(0, 0, 2, 2), rect(2, 0, 4, 2))).to.equal(false);
    });

    it('rectangles sharing part of an edge, and a corner only', () => {
      expect(overlap(rect(0, 0, 2, 2), rect(2, 1, 4, 5))).to.equal(false);
      expect(overlap(rect(0, 0, 2, 2), rect(2, 2, 4, 4))).to.equal(false);
    });

    it('shared edges despite floating-point rounding', () => {
      expect(overlap(rect(0, 0, 0.1 + 0.2, 1), rect(0.3, 0, 1, 1))).to.equal(false);
    });

    it('a vertex of one on an edge of the other', () => {
      expect(overlap(rect(0, 0, 4, 2), pts([2, 2], [3, 4], [1, 4]))).to.equal(false);
    });

    it('a square filling the notch of an L exactly (concave, sharing two edges)', () => {
      expect(overlap(ell, rect(2, 2, 4, 4))).to.equal(false);
    });

    it('a square filling the notch of a U exactly (sharing three edges)', () => {
      expect(overlap(you, rect(2, 2, 4, 4))).to.equal(false);
    });

    it('far apart, or inside the other\'s bounding box but outside the polygon', () => {
      expect(overlap(rect(0, 0, 1, 1), rect(5, 5, 6, 6))).to.equal(false);
      expect(overlap(ell, rect(2.5, 2.5, 3.5, 3.5))).to.equal(false);
    });
  });

  describe('any positive-area overlap is refused', () => {
    it('rectangles crossing each other', () => {
      expect(overlap(rect(0, 0, 2, 2), rect(1, 1, 3, 3))).to.equal(true);
    });

    it('a sliver of 1 cm', () => {
      expect(overlap(rect(0, 0, 2, 2), rect(1.99, 0, 4, 2))).to.equal(true);
    });

    it('one inside the other, without touching and touching from inside', () => {
      expect(overlap(rect(0, 0, 10, 10), rect(4, 4, 5, 5))).to.equal(true);
      expect(overlap(rect(0, 0, 10, 10), rect(0, 0, 5, 10))).to.equal(true);
    });

    it('identical polygons, also written with other vertices', () => {
      expect(overlap(rect(0, 0, 2, 2), rect(0, 0, 2, 2))).to.equal(true);
      expect(overlap(rect(0, 0, 2, 2), pts([2, 2], [0, 2], [0, 0], [1, 0], [2, 0]))).to.equal(true);
    });

    it('a triangle on the diagonal of a square: only vertices on the boundary, an edge through the inside', () => {
      expect(overlap(rect(0, 0, 2, 2), pts([0, 0], [2, 0], [2, 2]))).to.equal(true);
    });

    it('a diamond inscribed in a square: all vertices on the square\'s edges', () => {
      expect(overlap(rect(0, 0, 2, 2), pts([1, 0], [2, 1], [1, 2], [0, 1]))).to.equal(true);
    });

    it('a cross: no vertex of either inside the other', () => {
      expect(overlap(rect(0, 1, 4, 2), rect(1, 0, 2, 4))).to.equal(true);
    });

    it('concave: a square filling the notch of the L and a little more', () => {
      expect(overlap(ell, rect(1.5, 2, 4, 4))).to.equal(true);
      expect(overlap(you, rect(2, 1.9, 4, 4))).to.equal(true);
    });

    it('concave: two Ls interlocking', () => {
      const rotated = pts([4, 4], [0, 4], [0, 3], [3, 3], [3, 0], [4, 0]);
      expect(overlap(ell, rotated)).to.equal(true);
    });
  });
});

describe('zonemaps/overlap interiorPoint', () => {
  it('lies strictly inside convex and concave polygons', () => {
    for (const polygon of [rect(0, 0, 2, 2), ell, you, pts([0, 0], [2, 0], [1, 3])]) {
      const p = interiorPoint(polygon);
      if (p === undefined) return expect.fail('no interior point');
      expect(placement(p, polygon)).to.equal('inside');
    }
  });
});

describe('zonemaps/overlap against brute force', () => {
  // On integer grid coordinates, rectilinear polygons share area exactly when
  // some unit cell centre lies inside both: an independent oracle.
  let seed = 42;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return Math.floor((seed / 2147483648) * n); // high bits: the low ones of this LCG cycle fast
  };
  const randomShape = (): Vec[] => {
    const [x0, y0] = [next(8), next(8)];
    const [w, h] = [1 + next(5), 1 + next(5)];
    if (w < 2 || h < 2 || next(2) === 0) return rect(x0, y0, x0 + w, y0 + h);
    // An L: the rectangle minus a corner block.
    const [cw, ch] = [1 + next(w - 1), 1 + next(h - 1)];
    return pts([x0, y0], [x0 + w, y0], [x0 + w, y0 + h - ch], [x0 + w - cw, y0 + h - ch], [x0 + w - cw, y0 + h], [x0, y0 + h]);
  };
  const oracle = (a: Vec[], b: Vec[]): boolean => {
    for (let x = 0; x < 14; x++) {
      for (let y = 0; y < 14; y++) {
        const c = { x: x + 0.5, y: y + 0.5 };
        if (placement(c, a) === 'inside' && placement(c, b) === 'inside') return true;
      }
    }
    return false;
  };

  it('agrees on 2000 random pairs of rectangles and L shapes', () => {
    for (let i = 0; i < 2000; i++) {
      const [a, b] = [randomShape(), randomShape()];
      expect(polygonsOverlap(a, b), JSON.stringify({ a, b })).to.equal(oracle(a, b));
    }
  });
});
