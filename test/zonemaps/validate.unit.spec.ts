import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import type { ApiError } from '../../src/core/http/errors';
import type { ZoneInput, ZoneMap, ZoneMapInput } from '../../src/zonemaps/codec';
import { validateZoneMap } from '../../src/zonemaps/validate';

const square = (name: string, x0: number, y0: number, x1: number, y1: number, floor?: string | null): ZoneInput => ({
  name,
  ...(floor === undefined ? {} : { floor }),
  points: [
    { x: x0, y: y0 },
    { x: x1, y: y1 },
  ],
});

const given = (facilities: readonly string[]) => ({
  when: (input: Partial<ZoneMapInput>) => validateZoneMap({ name: 'map', zones: [], ...input }, facilities),
});
const single = given(['DEFAULT']);

function stored(result: E.Either<ApiError, ZoneMap>): ZoneMap {
  if (E.isLeft(result)) return expect.fail(`${result.left.message} ${JSON.stringify(result.left.errors)}`);
  return result.right;
}
function refused(result: E.Either<ApiError, ZoneMap>): ApiError {
  if (E.isRight(result)) return expect.fail('expected the zone map to be refused');
  expect(result.left.status).to.equal(400);
  return result.left;
}

describe('zonemaps/validateZoneMap', () => {
  describe('stored form', () => {
    it('fills z with 0 when omitted, keeps a given z, and sets floor null when omitted', () => {
      const zones: ZoneInput[] = [
        { name: 'A', points: [{ x: 0, y: 0 }, { x: 1, y: 1, z: 0.5 }] },
        { name: 'B', floor: '2', points: [{ x: 0, y: 0 }, { x: 1, y: 1 }] },
        { name: 'C', floor: null, points: [{ x: 5, y: 5 }, { x: 6, y: 6 }] },
      ];
      expect(stored(single.when({ zones }))).to.deep.equal({
        name: 'map',
        facility: 'DEFAULT',
        zones: [
          { name: 'A', floor: null, points: [{ x: 0, y: 0, z: 0 }, { x: 1, y: 1, z: 0.5 }] },
          { name: 'B', floor: '2', points: [{ x: 0, y: 0, z: 0 }, { x: 1, y: 1, z: 0 }] },
          { name: 'C', floor: null, points: [{ x: 5, y: 5, z: 0 }, { x: 6, y: 6, z: 0 }] },
        ],
      });
    });

    it('keeps polygon points as given (two points are not expanded to four)', () => {
      const triangle = { name: 'T', points: [{ x: 0, y: 0 }, { x: 4, y: 0 }, { x: 0, y: 3 }] };
      expect(stored(single.when({ zones: [triangle] })).zones[0]?.points).to.have.length(3);
    });

    it('accepts a map without zones (every tag is then in FACILITY)', () => {
      expect(stored(single.when({ zones: [] })).zones).to.deep.equal([]);
    });
  });

  describe('facility', () => {
    it('given one facility, when omitted, then the only facility is used', () => {
      expect(stored(single.when({})).facility).to.equal('DEFAULT');
    });

    it('given several facilities, when omitted, then 400 at body.facility', () => {
      const error = refused(given(['DEFAULT', 'F']).when({}));
      expect(error.errors).to.deep.equal([{ path: 'body.facility', reason: 'required when more than one facility exists' }]);
    });

    it('given several facilities, when named, then that one', () => {
      expect(stored(given(['DEFAULT', 'F']).when({ facility: 'F' })).facility).to.equal('F');
    });

    it('given a missing facility and a bad outline, then both are reported at once', () => {
      const error = refused(given(['DEFAULT', 'F']).when({ zones: [{ name: 'A', points: [] }] }));
      expect(error.errors.map((e) => e.path)).to.deep.equal(['body.facility', 'body.zones.0.points']);
    });

    it('given an unknown facility, then 400', () => {
      expect(refused(single.when({ facility: 'NOPE' })).message).to.equal('unknown facility "NOPE"');
    });
  });

  describe('zone outlines', () => {
    it('refuses a zone with fewer than 2 points, naming its points path', () => {
      const error = refused(single.when({ zones: [square('A', 0, 0, 1, 1), { name: 'B', points: [{ x: 0, y: 0 }] }] }));
      expect(error.errors).to.have.length(1);
      expect(error.errors[0]?.path).to.equal('body.zones.1.points');
      expect(error.errors[0]?.reason).to.contain('at least 2 points');
    });

    it('refuses a degenerate rectangle and a self-crossing polygon, each with its zone path', () => {
      const bowTie = { name: 'X', points: [{ x: 10, y: 0 }, { x: 12, y: 2 }, { x: 12, y: 0 }, { x: 10, y: 2 }] };
      const error = refused(single.when({ zones: [square('Line', 0, 0, 0, 5), bowTie] }));
      expect(error.errors.map((e) => e.path)).to.deep.equal(['body.zones.0.points', 'body.zones.1.points']);
      expect(error.errors[0]?.reason).to.contain('zero area');
      expect(error.errors[1]?.reason).to.contain('crosses');
    });

    it('refuses the reserved zone names FACILITY and ABSENT', () => {
      const error = refused(single.when({ zones: [square('FACILITY', 0, 0, 1, 1), square('ABSENT', 2, 2, 3, 3)] }));
      expect(error.errors.map((e) => e.path)).to.deep.equal(['body.zones.0.name', 'body.zones.1.name']);
    });
  });

  describe('overlaps', () => {
    it('allows rectangles that touch along an edge or at a corner', () => {
      const zones = [square('A', 0, 0, 2, 2), square('B', 2, 0, 4, 2), square('C', 4, 2, 6, 4)];
      expect(E.isRight(single.when({ zones }))).to.equal(true);
    });

    it('refuses any positive-area overlap, naming both zones in the message and both paths in errors', () => {
      const zones = [square('A', 0, 0, 2, 2), square('Other', 10, 10, 11, 11), square('B', 1.5, 0, 4, 2)];
      const error = refused(single.when({ zones }));
      expect(error.message).to.equal('zones "A" and "B" overlap');
      expect(error.errors).to.deep.equal([
        { path: 'body.zones.0', reason: 'overlaps zone "B" (body.zones.2)' },
        { path: 'body.zones.2', reason: 'overlaps zone "A" (body.zones.0)' },
      ]);
    });

    it('reports overlaps of valid outlines together with the problems of other zones and of the facility', () => {
      const error = given(['A', 'B']).when({ facility: 'C', zones: [square('Line', 0, 0, 0, 5), square('Dock', 0, 0, 10, 10), square('ABSENT', 5, 5, 15, 15)] });
      expect(refused(error).errors.map((e) => e.path)).to.deep.equal(['body.facility', 'body.zones.0.points', 'body.zones.2.name', 'body.zones.1', 'body.zones.2']);
    });

    it('reports every overlapping pair', () => {
      const zones = [square('A', 0, 0, 2, 2), square('B', 1, 1, 3, 3), square('C', 10, 0, 12, 2), square('D', 11, 0, 13, 2)];
      expect(refused(single.when({ zones })).message).to.equal('zones "A" and "B" overlap; zones "C" and "D" overlap');
    });

    it('allows same-name zones on different floors at the same place (one logical zone)', () => {
      const zones = [square('Stairs', 0, 0, 2, 2, '1'), square('Stairs', 0, 0, 2, 2, '2')];
      expect(E.isRight(single.when({ zones }))).to.equal(true);
    });

    it('allows different zones on different floors at the same place', () => {
      const zones = [square('A', 0, 0, 2, 2, '1'), square('B', 0, 0, 2, 2, '2'), square('C', 0, 0, 2, 2)];
      expect(E.isRight(single.when({ zones }))).to.equal(true);
    });

    it('refuses same-name zones overlapping on the same floor', () => {
      const zones = [square('Hall', 0, 0, 2, 2, '1'), square('Hall', 1, 1, 3, 3, '1')];
      expect(refused(single.when({ zones })).message).to.equal('zones "Hall" and "Hall" overlap');
    });

    it('allows same-name zones that only touch (a non-rectangular logical zone)', () => {
      const zones = [square('Hall', 0, 0, 2, 2), square('Hall', 2, 0, 4, 1)];
      expect(E.isRight(single.when({ zones }))).to.equal(true);
    });

    it('treats omitted and null floor as the same level', () => {
      const zones = [square('A', 0, 0, 2, 2), square('B', 1, 1, 3, 3, null)];
      expect(refused(single.when({ zones })).message).to.equal('zones "A" and "B" overlap');
    });

    it('concave: allows a zone in the notch of an L, refuses one reaching into the L', () => {
      const ell: ZoneInput = {
        name: 'L',
        points: [{ x: 0, y: 0 }, { x: 4, y: 0 }, { x: 4, y: 2 }, { x: 2, y: 2 }, { x: 2, y: 4 }, { x: 0, y: 4 }],
      };
      expect(E.isRight(single.when({ zones: [ell, square('Notch', 2, 2, 4, 4)] }))).to.equal(true);
      expect(refused(single.when({ zones: [ell, square('Notch', 1, 3, 4, 4)] })).message).to.equal(
        'zones "L" and "Notch" overlap',
      );
    });
  });

  it('uses the given root for error paths', () => {
    const result = validateZoneMap({ name: 'm', zones: [{ name: 'A', points: [] }] }, ['DEFAULT'], 'data');
    expect(refused(result).errors[0]?.path).to.equal('data.zones.0.points');
  });
});
