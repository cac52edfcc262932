import { expect } from 'chai';
import { area, placement, pointInPolygon, polygonOf, polygonProblem, signedArea } from '../../src/zonemaps/geometry';

const pts = (...xy: Array<[number, number]>) => xy.map(([x, y]) => ({ x, y }));
// An L: the 4x4 square minus its top-right 2x2 quarter (concave at (2, 2)).
const ell = pts([0, 0], [4, 0], [4, 2], [2, 2], [2, 4], [0, 4]);

describe('zonemaps/geometry', () => {
  describe('polygonOf', () => {
    it('given two points, then the axis-aligned rectangle they span, whatever corners they are', () => {
      const corners = pts([1, 1], [3, 1], [3, 2], [1, 2]);
      expect(polygonOf(pts([1, 1], [3, 2]))).to.deep.equal(corners);
      expect(polygonOf(pts([3, 1], [1, 2]))).to.deep.equal(corners);
      expect(area(polygonOf(pts([3, 2], [1, 1])))).to.equal(2);
    });

    it('given more points, then the vertices in the given order (z ignored)', () => {
      const points = [
        { x: 0, y: 0, z: 0 },
        { x: 2, y: 0, z: 0 },
        { x: 1, y: 3, z: 0 },
      ];
      expect(polygonOf(points)).to.deep.equal(pts([0, 0], [2, 0], [1, 3]));
    });

    it('given a ring closed onto its first point or a repeated point, then the repeats are dropped', () => {
      expect(polygonOf(pts([0, 0], [2, 0], [2, 0], [2, 2], [0, 0]))).to.deep.equal(pts([0, 0], [2, 0], [2, 2]));
    });
  });

  describe('area', () => {
    it('is the same for either orientation; the sign tells the orientation', () => {
      const square = pts([0, 0], [2, 0], [2, 2], [0, 2]);
      expect(signedArea(square)).to.equal(4);
      expect(signedArea([...square].reverse())).to.equal(-4);
      expect(area(ell)).to.equal(12);
    });
  });

  describe('polygonProblem', () => {
    it('accepts rectangles, triangles, concave polygons and collinear extra vertices', () => {
      expect(polygonProblem(polygonOf(pts([0, 0], [1, 1])))).to.equal(undefined);
      expect(polygonProblem(pts([0, 0], [2, 0], [1, 3]))).to.equal(undefined);
      expect(polygonProblem(ell)).to.equal(undefined);
      expect(polygonProblem(pts([0, 0], [1, 0], [2, 0], [2, 2], [0, 2]))).to.equal(undefined);
    });

    it('refuses fewer than 3 distinct points', () => {
      expect(polygonProblem(polygonOf(pts([0, 0], [1, 1], [0, 0])))).to.contain('at least 3 distinct points');
    });

    it('refuses a zero-area outline: collinear points, or a degenerate two-point rectangle', () => {
      expect(polygonProblem(pts([0, 0], [1, 1], [2, 2]))).to.contain('zero area');
      expect(polygonProblem(polygonOf(pts([0, 0], [0, 5])))).to.contain('zero area');
    });

    it('refuses a bow tie: points not in order around the outline', () => {
      expect(polygonProblem(pts([0, 0], [2, 2], [2, 0], [0, 2]))).to.contain('crosses or touches itself');
    });

    it('refuses an outline that touches itself at a vertex', () => {
      // Two triangles joined at (2, 2): the vertex is visited twice.
      expect(polygonProblem(pts([0, 0], [2, 2], [4, 0], [4, 4], [2, 2], [0, 4]))).to.contain('touches itself');
    });

    it('refuses a spike that folds back along its own edge', () => {
      expect(polygonProblem(pts([0, 0], [4, 0], [4, 4], [0, 4], [0, 6], [0, 3]))).to.not.equal(undefined);
      expect(polygonProblem(pts([0, 0], [4, 0], [2, 0], [2, 3]))).to.contain('folds back');
    });
  });

  describe('pointInPolygon (boundary counts as inside)', () => {
    const square = polygonOf(pts([0, 0], [2, 2]));

    it('inside, outside', () => {
      expect(pointInPolygon({ x: 1, y: 1 }, square)).to.equal(true);
      expect(pointInPolygon({ x: 3, y: 1 }, square)).to.equal(false);
      expect(pointInPolygon({ x: -0.001, y: 1 }, square)).to.equal(false);
    });

    it('on an edge and on a corner: inside, reported as boundary', () => {
      expect(pointInPolygon({ x: 2, y: 1 }, square)).to.equal(true);
      expect(pointInPolygon({ x: 0, y: 0 }, square)).to.equal(true);
      expect(placement({ x: 1, y: 2 }, square)).to.equal('boundary');
      expect(placement({ x: 1, y: 1 }, square)).to.equal('inside');
    });

    it('on an edge despite floating-point rounding', () => {
      const tenth = polygonOf(pts([0, 0], [0.3, 1]));
      expect(placement({ x: 0.1 + 0.2, y: 0.5 }, tenth)).to.equal('boundary');
    });

    it('concave: the notch of the L is outside, its inner corner and edges are boundary', () => {
      expect(pointInPolygon({ x: 3, y: 3 }, ell)).to.equal(false);
      expect(pointInPolygon({ x: 3, y: 1 }, ell)).to.equal(true);
      expect(pointInPolygon({ x: 1, y: 3 }, ell)).to.equal(true);
      expect(placement({ x: 2, y: 2 }, ell)).to.equal('boundary');
      expect(placement({ x: 3, y: 2 }, ell)).to.equal('boundary');
    });

    it('a point level with a vertex is counted once by the ray', () => {
      // The ray from (1, 2) to +x passes through the vertex (2, 2) of the L...
      expect(placement({ x: 1, y: 2 }, ell)).to.equal('inside');
      // ...and the one from (-1, 2) through (0, 4)-(0, 0) edge and that vertex.
      expect(placement({ x: -1, y: 2 }, ell)).to.equal('outside');
      // A diamond: the ray from the left passes through its right tip only.
      const diamond = pts([2, 0], [4, 2], [2, 4], [0, 2]);
      expect(placement({ x: 1, y: 2 }, diamond)).to.equal('inside');
      expect(placement({ x: -1, y: 2 }, diamond)).to.equal('outside');
    });
  });
});
