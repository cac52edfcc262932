import { expect } from 'chai';
import type { Zone, ZoneMap } from '../../src/zonemaps/codec';
import { logicalZones, zoneAt, zoneLocator } from '../../src/zonemaps/lookup';

const zone = (name: string, floor: string | null, ...xy: Array<[number, number]>): Zone => ({
  name,
  floor,
  points: xy.map(([x, y]) => ({ x, y, z: 0 })),
});

const map: ZoneMap = {
  name: 'store',
  facility: 'DEFAULT',
  zones: [
    zone('Entrance', null, [0, 0], [2, 2]),
    zone('Shop', null, [2, 0], [6, 2]),
    zone('Stairs', '1', [0, 0], [1, 1]),
    zone('Stairs', '2', [0, 0], [1, 1]),
    // An L on floor 2: the notch (x 2..4, y 2..4) is outside it.
    zone('Office', '2', [0, 1], [4, 1], [4, 2], [2, 2], [2, 4], [0, 4]),
    zone('Entrance', null, [0, 2], [1, 3]),
  ],
};

describe('zonemaps/lookup', () => {
  describe('logicalZones', () => {
    it('groups same-name zones in order of first appearance, with their floors and map positions', () => {
      const logical = logicalZones(map);
      expect(logical.map((z) => z.name)).to.deep.equal(['Entrance', 'Shop', 'Stairs', 'Office']);
      expect(logical[0]?.parts.map((p) => p.index)).to.deep.equal([0, 5]);
      expect(logical[2]?.parts.map((p) => p.floor)).to.deep.equal(['1', '2']);
      expect(logical[0]?.parts[0]?.polygon).to.have.length(4);
    });
  });

  describe('zoneAt', () => {
    it('given a point inside a zone of that floor, then its name', () => {
      expect(zoneAt(map, null, 1, 1)).to.equal('Entrance');
      expect(zoneAt(map, undefined, 4, 1)).to.equal('Shop');
      expect(zoneAt(map, '1', 0.5, 0.5)).to.equal('Stairs');
    });

    it('given a point inside a non-contiguous part of a logical zone, then that logical zone', () => {
      expect(zoneAt(map, null, 0.5, 2.5)).to.equal('Entrance');
    });

    it('given zones of other floors only, then undefined (the caller reports FACILITY)', () => {
      expect(zoneAt(map, '1', 4, 1)).to.equal(undefined);
      expect(zoneAt(map, '3', 0.5, 0.5)).to.equal(undefined);
      expect(zoneAt(map, null, 10, 10)).to.equal(undefined);
    });

    it('given a point on a boundary, then inside; on a shared edge the first zone listed', () => {
      expect(zoneAt(map, null, 0, 1)).to.equal('Entrance');
      expect(zoneAt(map, null, 2, 1)).to.equal('Entrance');
      expect(zoneAt(map, null, 6, 2)).to.equal('Shop');
    });

    it('concave: the notch of an L is not in it', () => {
      const locate = zoneLocator(map);
      expect(locate('2', 3, 3)).to.equal(undefined);
      expect(locate('2', 3, 1.5)).to.equal('Office');
      expect(locate('2', 1, 3)).to.equal('Office');
      expect(locate('2', 0.5, 0.5)).to.equal('Stairs');
    });
  });
});
