import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import {
  applyCurrentZoneMapChange,
  checkZoneMapDeletion,
  checkZoneMapReplace,
  decideCurrentZoneMap,
  type CurrentZoneMapContext,
  type CurrentZoneMaps,
} from '../../src/zonemaps/current';

const context = (current: CurrentZoneMaps = new Map()): CurrentZoneMapContext => ({
  zoneMaps: [
    { name: 'ground', facility: 'DEFAULT' },
    { name: 'ground-v2', facility: 'DEFAULT' },
    { name: 'store', facility: 'STORE' },
  ],
  facilityNames: ['DEFAULT', 'STORE'],
  current,
});

describe('zonemaps/current (current zone map per facility)', () => {
  describe('select', () => {
    it('given an existing zone map, then it becomes current for its own facility', () => {
      expect(decideCurrentZoneMap({ type: 'SelectCurrentZoneMap', zoneMapName: 'store' }, context())).to.deep.equal(
        E.right({ type: 'CurrentZoneMapSelected', facility: 'STORE', zoneMapName: 'store', previous: undefined }),
      );
    });

    it('given another current zone map in that facility, then the change names the previous one', () => {
      const result = decideCurrentZoneMap(
        { type: 'SelectCurrentZoneMap', zoneMapName: 'ground-v2' },
        context(new Map([['DEFAULT', 'ground']])),
      );
      expect(E.isRight(result) && result.right).to.include({ facility: 'DEFAULT', previous: 'ground' });
    });

    it('given an unknown zone map, then 404', () => {
      const result = decideCurrentZoneMap({ type: 'SelectCurrentZoneMap', zoneMapName: 'nope' }, context());
      expect(E.isLeft(result) && result.left.status).to.equal(404);
    });
  });

  describe('clear', () => {
    it('given a selection, then it is cleared and the previous one named', () => {
      const result = decideCurrentZoneMap(
        { type: 'ClearCurrentZoneMap', facility: 'DEFAULT' },
        context(new Map([['DEFAULT', 'ground']])),
      );
      expect(result).to.deep.equal(E.right({ type: 'CurrentZoneMapCleared', facility: 'DEFAULT', previous: 'ground' }));
    });

    it('given no selection, then clearing is accepted with nothing previous (idempotent)', () => {
      const result = decideCurrentZoneMap({ type: 'ClearCurrentZoneMap', facility: 'STORE' }, context());
      expect(E.isRight(result) && result.right.previous).to.equal(undefined);
    });

    it('given an unknown facility, then 404', () => {
      const result = decideCurrentZoneMap({ type: 'ClearCurrentZoneMap', facility: 'NOPE' }, context());
      expect(E.isLeft(result) && result.left.status).to.equal(404);
    });
  });

  it('applyCurrentZoneMapChange folds selections and clears per facility without mutating', () => {
    const before: CurrentZoneMaps = new Map([['DEFAULT', 'ground']]);
    const selected = applyCurrentZoneMapChange(before, {
      type: 'CurrentZoneMapSelected',
      facility: 'STORE',
      zoneMapName: 'store',
      previous: undefined,
    });
    const cleared = applyCurrentZoneMapChange(selected, { type: 'CurrentZoneMapCleared', facility: 'DEFAULT', previous: 'ground' });
    expect([...selected]).to.deep.equal([['DEFAULT', 'ground'], ['STORE', 'store']]);
    expect([...cleared]).to.deep.equal([['STORE', 'store']]);
    expect([...before]).to.deep.equal([['DEFAULT', 'ground']]);
  });

  describe('zone map deletion and replacement', () => {
    const current: CurrentZoneMaps = new Map([['DEFAULT', 'ground']]);

    it('given the current zone map, when deleted, then 409 telling to clear it first', () => {
      const result = checkZoneMapDeletion('ground', current);
      if (E.isRight(result)) return expect.fail('expected a refusal');
      expect(result.left.status).to.equal(409);
      expect(result.left.message).to.equal('zone map "ground" is the current zone map of facility "DEFAULT"; clear it first');
    });

    it('given a zone map that is not current, when deleted, then allowed', () => {
      expect(E.isRight(checkZoneMapDeletion('ground-v2', current))).to.equal(true);
    });

    it('given the current zone map, when replaced in the same facility, then allowed', () => {
      expect(E.isRight(checkZoneMapReplace('ground', 'DEFAULT', current))).to.equal(true);
    });

    it('given the current zone map, when replaced into another facility, then 409', () => {
      const result = checkZoneMapReplace('ground', 'STORE', current);
      expect(E.isLeft(result) && result.left.status).to.equal(409);
    });
  });
});
