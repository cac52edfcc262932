import { expect } from 'chai';
import { normalizeFloor, normalizePlacement, ReaderDefinitionBody } from '../../src/readerdefinitions/codec';
import { READER_TYPES } from '../../src/readerdefinitions/reader-types';
import { decoded, paths, refused } from './support';

describe('readerdefinitions/codec ReaderDefinitionBody', () => {
  it('given only a name, when decoded, then it is accepted', () => {
    expect(decoded(ReaderDefinitionBody, { name: 'xarray-1' })).to.deep.equal({ name: 'xarray-1' });
  });

  it('given no name or a blank one, when decoded, then 400 at body.name', () => {
    expect(paths(refused(ReaderDefinitionBody, {}))).to.deep.equal(['body.name']);
    expect(refused(ReaderDefinitionBody, {}).errors[0]?.reason).to.match(/is required/);
    expect(refused(ReaderDefinitionBody, { name: '  ' }).status).to.equal(400);
  });

  it('given each of the four reader families, when decoded, then accepted; any other type is refused', () => {
    expect(READER_TYPES).to.deep.equal(['XARRAY', 'XSPAN', 'XPORTAL', 'SPEEDWAY']);
    for (const type of READER_TYPES) expect(decoded(ReaderDefinitionBody, { name: 'r', type }).type).to.equal(type);
    expect(decoded(ReaderDefinitionBody, { name: 'r', type: null }).type).to.equal(null);
    expect(paths(refused(ReaderDefinitionBody, { name: 'r', type: 'R700' }))).to.deep.equal(['body.type']);
  });

  it('given a floor as a number or as a string, when decoded, then both are accepted', () => {
    expect(decoded(ReaderDefinitionBody, { name: 'r', placement: { floor: 1 } }).placement).to.deep.equal({ floor: 1 });
    expect(decoded(ReaderDefinitionBody, { name: 'r', placement: { floor: 'B1' } }).placement).to.deep.equal({ floor: 'B1' });
    expect(paths(refused(ReaderDefinitionBody, { name: 'r', placement: { floor: true } }))).to.deep.equal(['body.placement.floor']);
  });

  it('given a placement coordinate that is not a number, when decoded, then 400 at its path', () => {
    expect(paths(refused(ReaderDefinitionBody, { name: 'r', placement: { x: '1' } }))).to.deep.equal(['body.placement.x']);
    expect(paths(refused(ReaderDefinitionBody, { name: 'r', placement: { yaw: null } }))).to.deep.equal(['body.placement.yaw']);
  });

  it('given antennaZones, labels and groups of the wrong element type, when decoded, then 400 naming them', () => {
    expect(paths(refused(ReaderDefinitionBody, { name: 'r', antennaZones: { '1': 5 } }))).to.deep.equal(['body.antennaZones.1']);
    expect(paths(refused(ReaderDefinitionBody, { name: 'r', antennaZones: { '1': '' } }))).to.deep.equal(['body.antennaZones.1']);
    expect(paths(refused(ReaderDefinitionBody, { name: 'r', labels: [1] }))).to.deep.equal(['body.labels.0']);
    expect(paths(refused(ReaderDefinitionBody, { name: 'r', groups: 'g' }))).to.deep.equal(['body.groups']);
  });

  it('given null for every optional field, when decoded, then accepted (clients serialise unset fields as null)', () => {
    const body = { name: 'r', address: null, groups: null, type: null, placement: null, facility: null, readerZone: null, antennaZones: null, labels: null };
    expect(decoded(ReaderDefinitionBody, body)).to.deep.equal(body);
  });

  it('given the service-owned agentIdentifier and features, when decoded, then they do not make the body invalid', () => {
    expect(decoded(ReaderDefinitionBody, { name: 'r', agentIdentifier: 5, features: 'x' }).name).to.equal('r');
  });
});

describe('readerdefinitions/codec normalisation', () => {
  it('compares floors as strings: 1 -> "1", blank -> null, absent -> null', () => {
    expect(normalizeFloor(1)).to.equal('1');
    expect(normalizeFloor('2')).to.equal('2');
    expect(normalizeFloor(' ')).to.equal(null);
    expect(normalizeFloor(null)).to.equal(null);
    expect(normalizeFloor(undefined)).to.equal(null);
  });

  it('fills omitted placement numbers with 0, keeps the floor as sent and null placement null', () => {
    expect(normalizePlacement({ x: 1.5, floor: 3 })).to.deep.equal({ x: 1.5, y: 0, z: 0, yaw: 0, pitch: 0, roll: 0, floor: 3 });
    expect(normalizePlacement({ floor: '3' })?.floor, 'a string stays a string').to.equal('3');
    expect(normalizePlacement({ floor: '  ' })?.floor, 'a blank floor is no floor').to.equal(null);
    expect(normalizePlacement(null)).to.equal(null);
    expect(normalizePlacement(undefined)).to.equal(null);
  });
});
