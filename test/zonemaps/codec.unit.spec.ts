import { expect } from 'chai';
import { ApiError } from '../../src/core/http/errors';
import { decodeInput } from '../../src/core/http/decode';
import { ZoneMapInput } from '../../src/zonemaps/codec';

function refusal(body: unknown): ApiError {
  try {
    decodeInput(ZoneMapInput, body, 'body');
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  return expect.fail('expected the body to be refused');
}

const zone = (points: unknown[], extra: object = {}) => ({ name: 'A', points, ...extra });

describe('zonemaps/codec ZoneMapInput', () => {
  it('given points without z, then they decode (z is filled in later)', () => {
    const body = { name: 'm', zones: [zone([{ x: 0, y: 0 }, { x: 1, y: 1 }])] };
    expect(decodeInput(ZoneMapInput, body, 'body').zones[0]?.points).to.deep.equal([
      { x: 0, y: 0 },
      { x: 1, y: 1 },
    ]);
  });

  it('given z as a number, then it is kept', () => {
    const body = { name: 'm', zones: [zone([{ x: 0, y: 0, z: 0 }, { x: 1, y: 1, z: 2.5 }])] };
    expect(decodeInput(ZoneMapInput, body, 'body').zones[0]?.points[1]).to.deep.equal({ x: 1, y: 1, z: 2.5 });
  });

  it('given z null, then 400 naming the exact point path with "must not be null"', () => {
    const body = { name: 'm', zones: [zone([{ x: 0, y: 0 }, { x: 1, y: 1, z: null }])] };
    const error = refusal(body);
    expect(error.status).to.equal(400);
    expect(error.errors).to.deep.equal([{ path: 'body.zones.0.points.1.z', reason: 'must not be null' }]);
  });

  it('given z null in a later zone, then the path names that zone', () => {
    const good = zone([{ x: 0, y: 0 }, { x: 1, y: 1 }]);
    const bad = zone([{ x: 0, y: 0, z: null }, { x: 1, y: 1 }]);
    expect(refusal({ name: 'm', zones: [good, bad] }).errors[0]?.path).to.equal('body.zones.1.points.0.z');
  });

  it('given x missing or y a string, then each is named', () => {
    const error = refusal({ name: 'm', zones: [zone([{ y: 0 }, { x: 1, y: '1' }])] });
    expect(error.errors).to.deep.equal([
      { path: 'body.zones.0.points.0.x', reason: 'is required (number)' },
      { path: 'body.zones.0.points.1.y', reason: 'must be a finite number' },
    ]);
  });

  it('given floor omitted, null or a string, then it decodes; a number is refused', () => {
    const points = [{ x: 0, y: 0 }, { x: 1, y: 1 }];
    const body = { name: 'm', zones: [zone(points), zone(points, { floor: null }), zone(points, { floor: '1' })] };
    expect(decodeInput(ZoneMapInput, body, 'body').zones.map((z) => z.floor)).to.deep.equal([undefined, null, '1']);
    expect(refusal({ name: 'm', zones: [zone(points, { floor: 1 })] }).errors[0]?.path).to.equal('body.zones.0.floor');
  });

  it('given an empty zone name or zone map name, then 400 at that name', () => {
    const points = [{ x: 0, y: 0 }, { x: 1, y: 1 }];
    expect(refusal({ name: 'm', zones: [{ name: '', points }] }).errors).to.deep.equal([
      { path: 'body.zones.0.name', reason: 'must not be empty' },
    ]);
    expect(refusal({ name: '', zones: [] }).errors).to.deep.equal([{ path: 'body.name', reason: 'must not be empty' }]);
  });

  it('given zones or points missing, then 400 at that field', () => {
    expect(refusal({ name: 'm' }).errors[0]?.path).to.equal('body.zones');
    expect(refusal({ name: 'm', zones: [{ name: 'A' }] }).errors[0]?.path).to.equal('body.zones.0.points');
  });

  it('given facility omitted, null or a string, then it decodes', () => {
    for (const facility of [undefined, null, 'F']) {
      expect(decodeInput(ZoneMapInput, { name: 'm', facility, zones: [] }, 'body').facility).to.equal(facility);
    }
  });
});
