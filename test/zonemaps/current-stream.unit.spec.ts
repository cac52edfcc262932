import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { decideOnHistory } from '../../src/core/command';
import { RedisKeys } from '../../src/core/redis/keys';
import type { RecordedDomainEvent } from '../../src/core/events';
import type { CurrentZoneMapCommand } from '../../src/zonemaps/current';
import {
  currentZoneMapStream,
  decideOnFacilityStream,
  evolveCurrentZoneMap,
  initialCurrentZoneMapState,
  type CurrentZoneMapEvent,
  type CurrentZoneMapSnapshot,
} from '../../src/zonemaps/events';
import { currentZoneMapPart } from '../../projections/config/current-zone-map';

const snapshot: CurrentZoneMapSnapshot = {
  zoneMaps: [
    { name: 'ground', facility: 'DEFAULT' },
    { name: 'ground-v2', facility: 'DEFAULT' },
    { name: 'store', facility: 'STORE' },
  ],
  facilityNames: ['DEFAULT', 'STORE'],
};
const now = new Date('2024-01-01T00:00:00Z');
const on = (facility: string) => ({
  given: (...history: CurrentZoneMapEvent[]) => ({
    when: (command: CurrentZoneMapCommand) =>
      decideOnHistory(
        { initialState: initialCurrentZoneMapState, evolve: evolveCurrentZoneMap, decide: decideOnFacilityStream(facility, snapshot) },
        history,
        command,
        now,
      ),
  }),
});
const selected = (facility: string, zoneMapName: string): CurrentZoneMapEvent => ({ type: 'CurrentZoneMapSelected', data: { facility, zoneMapName } });
const cleared = (facility: string): CurrentZoneMapEvent => ({ type: 'CurrentZoneMapCleared', data: { facility } });

describe('zonemaps/events (current zone map stream of one facility)', () => {
  it('names the stream after the facility', () => {
    expect(currentZoneMapStream('DEFAULT')).to.equal('currentZoneMap-DEFAULT');
  });

  it('given nothing selected, when selecting, then CurrentZoneMapSelected and the state names it', () => {
    const result = on('DEFAULT').given().when({ type: 'SelectCurrentZoneMap', zoneMapName: 'ground' });
    expect(result).to.deep.equal(E.right({ events: [selected('DEFAULT', 'ground')], state: { zoneMapName: 'ground' } }));
  });

  it('given another selection, when selecting, then the new one replaces it', () => {
    const result = on('DEFAULT').given(selected('DEFAULT', 'ground')).when({ type: 'SelectCurrentZoneMap', zoneMapName: 'ground-v2' });
    expect(E.isRight(result) && result.right.state).to.deep.equal({ zoneMapName: 'ground-v2' });
  });

  it('given the same selection, when selecting it again, then nothing is appended', () => {
    const result = on('DEFAULT').given(selected('DEFAULT', 'ground')).when({ type: 'SelectCurrentZoneMap', zoneMapName: 'ground' });
    expect(E.isRight(result) && result.right.events).to.deep.equal([]);
  });

  it('given a selection, when clearing, then CurrentZoneMapCleared and nothing is selected', () => {
    const result = on('DEFAULT').given(selected('DEFAULT', 'ground')).when({ type: 'ClearCurrentZoneMap', facility: 'DEFAULT' });
    expect(result).to.deep.equal(E.right({ events: [cleared('DEFAULT')], state: { zoneMapName: undefined } }));
  });

  it('given nothing selected (never, or cleared), when clearing, then nothing is appended', () => {
    for (const history of [[], [selected('DEFAULT', 'ground'), cleared('DEFAULT')]]) {
      const result = on('DEFAULT').given(...history).when({ type: 'ClearCurrentZoneMap', facility: 'DEFAULT' });
      expect(E.isRight(result) && result.right.events).to.deep.equal([]);
    }
  });

  it('refuses an unknown zone map or facility with 404', () => {
    const zm = on('DEFAULT').given().when({ type: 'SelectCurrentZoneMap', zoneMapName: 'nope' });
    expect(E.isLeft(zm) && zm.left.status).to.equal(404);
    const facility = on('NOPE').given().when({ type: 'ClearCurrentZoneMap', facility: 'NOPE' });
    expect(E.isLeft(facility) && facility.left.status).to.equal(404);
  });

  it('throws when a selection is decided on the stream of another facility (caller bug)', () => {
    expect(() => on('DEFAULT').given().when({ type: 'SelectCurrentZoneMap', zoneMapName: 'store' })).to.throw(/STORE/);
  });
});

describe('projections/config/current-zone-map (currentZoneMapPart)', () => {
  const keys = new RedisKeys('t:');
  const recorded = (event: CurrentZoneMapEvent) => event as unknown as RecordedDomainEvent<{ type: string; data: unknown }>;
  const run = (event: CurrentZoneMapEvent) => {
    const calls: unknown[][] = [];
    const tx = { hSet: (...a: unknown[]) => calls.push(['hSet', ...a]), hDel: (...a: unknown[]) => calls.push(['hDel', ...a]), del: (...a: unknown[]) => calls.push(['del', ...a]) };
    currentZoneMapPart.apply(tx, recorded(event), keys);
    return calls;
  };

  it('reads the currentZoneMap- streams and knows exactly its two events', () => {
    expect(currentZoneMapPart.streamPrefix).to.equal('currentZoneMap-');
    expect(Object.keys(currentZoneMapPart.codecs).sort()).to.deep.equal(['CurrentZoneMapCleared', 'CurrentZoneMapSelected']);
  });

  it('sets facility -> JSON zone map name on select, and removes the facility on clear', () => {
    expect(run(selected('DEFAULT', 'ground'))).to.deep.equal([['hSet', 't:v1:config:currentZoneMap', 'DEFAULT', '"ground"']]);
    expect(run(cleared('DEFAULT'))).to.deep.equal([['hDel', 't:v1:config:currentZoneMap', 'DEFAULT']]);
  });
});
