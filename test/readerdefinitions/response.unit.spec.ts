import { expect } from 'chai';
import type { ReaderDefinition } from '../../src/readerdefinitions/codec';
import { toResponse } from '../../src/readerdefinitions/response';
import { isAntennaId } from '../../src/readerdefinitions/reader-types';

const minimal: ReaderDefinition = {
  name: 'r1',
  agentIdentifier: 'r1',
  address: null,
  groups: [],
  type: null,
  placement: null,
  facility: 'DEFAULT',
  readerZone: null,
  antennaZones: null,
  labels: null,
};

describe('readerdefinitions/response toResponse', () => {
  it('given a minimal definition, when returned, then every field is present with null where unset', () => {
    expect(toResponse(minimal)).to.deep.equal({ ...minimal, features: {}, connection: null });
    expect(Object.keys(toResponse(minimal)).sort()).to.deep.equal(
      ['address', 'agentIdentifier', 'antennaZones', 'connection', 'facility', 'features', 'groups', 'labels', 'name', 'placement', 'readerZone', 'type'],
    );
  });

  it('given features, when returned, then they appear under features', () => {
    const hub = { status: 'ENABLED' as const, statusLastUpdated: '2024-01-01T00:00:00.000Z', requestStatus: 'IDLE' as const, requestStatusLastUpdated: '2024-01-01T00:00:00.000Z', requestTargetStatus: null };
    expect(toResponse(minimal, { ANTENNA_HUB: hub }).features).to.deep.equal({ ANTENNA_HUB: hub });
  });

  it('given a full definition, when the response is mutated, then the stored definition is untouched', () => {
    const full: ReaderDefinition = {
      ...minimal,
      groups: ['g'],
      placement: { x: 1, y: 2, z: 0, yaw: 0, pitch: 0, roll: 0, floor: '1' },
      antennaZones: { '1': 'A' },
      labels: ['l'],
    };
    const response = toResponse(full);
    response.groups.push('x');
    response.labels?.push('x');
    if (response.placement) response.placement.floor = '9';
    if (response.antennaZones) response.antennaZones['2'] = 'B';
    expect(full.groups).to.deep.equal(['g']);
    expect(full.labels).to.deep.equal(['l']);
    expect(full.placement?.floor).to.equal('1');
    expect(full.antennaZones).to.deep.equal({ '1': 'A' });
  });
});

describe('readerdefinitions/reader-types isAntennaId', () => {
  it('accepts 1-52 and the polarized ranges 1001-1052 and 2001-2052 only', () => {
    for (const ok of [1, 52, 1001, 1052, 2001, 2052]) expect(isAntennaId(ok), String(ok)).to.equal(true);
    for (const bad of [0, -1, 53, 1000, 1053, 2000, 2053, 1.5]) expect(isAntennaId(bad), String(bad)).to.equal(false);
  });
});
