import { expect } from 'chai';
import type { ReaderDefinition, ReaderDefinitionBody } from '../../src/readerdefinitions/codec';
import {
  groupsUnion,
  validateReaderDefinitionCreate,
  validateReaderDefinitionReplace,
} from '../../src/readerdefinitions/validate';
import { leftOf, paths, rightOf } from './support';

const ONE = ['DEFAULT'];
const TWO = ['DEFAULT', 'Store2'];

const stored = (over: Partial<ReaderDefinition> = {}): ReaderDefinition => ({
  name: 'xarray-1',
  agentIdentifier: 'agent-77',
  address: 'xarray-1.local',
  groups: ['dock'],
  type: 'XARRAY',
  placement: { x: 1, y: 2, z: 3, yaw: 0, pitch: 0, roll: 0, floor: 1 },
  facility: 'DEFAULT',
  readerZone: 'Dock',
  antennaZones: { '1': 'DockLeft', '2': 'DockRight' },
  labels: null,
  ...over,
});

/** The body that recreates `stored()` unchanged. */
const same = (over: Partial<ReaderDefinitionBody> = {}): ReaderDefinitionBody => ({
  name: 'xarray-1',
  address: 'xarray-1.local',
  groups: ['dock'],
  type: 'XARRAY',
  placement: { x: 1, y: 2, z: 3, floor: 1 },
  facility: 'DEFAULT',
  readerZone: 'Dock',
  antennaZones: { '1': 'DockLeft', '2': 'DockRight' },
  ...over,
});

describe('readerdefinitions/validate create', () => {
  it('given one facility and no facility field, when created, then the only facility is used and defaults filled', () => {
    expect(rightOf(validateReaderDefinitionCreate({ name: 'r1' }, ONE))).to.deep.equal({
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
      connection: null,
    });
  });

  it('given several facilities and no facility field, when created, then 400 at body.facility', () => {
    const error = leftOf(validateReaderDefinitionCreate({ name: 'r1' }, TWO));
    expect(error.status).to.equal(400);
    expect(paths(error)).to.deep.equal(['body.facility']);
  });

  it('given a facility that does not exist, when created, then refused naming body.facility', () => {
    expect(paths(leftOf(validateReaderDefinitionCreate({ name: 'r1', facility: 'Nope' }, TWO)))).to.deep.equal(['body.facility']);
  });

  it('given several facilities and an existing one, when created, then it is stored', () => {
    expect(rightOf(validateReaderDefinitionCreate({ name: 'r1', facility: 'Store2' }, TWO)).facility).to.equal('Store2');
  });

  it('given a numeric or a string floor, when created, then the floor is stored as sent', () => {
    expect(rightOf(validateReaderDefinitionCreate({ name: 'r1', placement: { floor: 2 } }, ONE)).placement?.floor).to.equal(2);
    expect(rightOf(validateReaderDefinitionCreate({ name: 'r1', placement: { floor: '2' } }, ONE)).placement?.floor).to.equal('2');
  });

  it('given antennaZones keyed by something other than an antenna id, when created, then 400 naming each key', () => {
    const error = leftOf(validateReaderDefinitionCreate({ name: 'r', antennaZones: { '1': 'A', '01': 'B', x: 'C', '53': 'D', '1001': 'E' } }, ONE));
    expect(error.status).to.equal(400);
    expect(paths(error).sort()).to.deep.equal(['body.antennaZones.01', 'body.antennaZones.53', 'body.antennaZones.x']);
  });
});

describe('readerdefinitions/validate replace (update rules)', () => {
  it('given no existing definition, when replaced, then it behaves as create', () => {
    expect(rightOf(validateReaderDefinitionReplace(undefined, { name: 'r1' }, ONE)).agentIdentifier).to.equal('r1');
  });

  it('given an existing definition, when replaced unchanged, then its agentIdentifier is kept', () => {
    expect(rightOf(validateReaderDefinitionReplace(stored(), same(), ONE))).to.deep.equal({ ...stored(), connection: null });
  });

  it('given a facility change without renaming, when replaced, then 400 naming readerZone and every antennaZones entry', () => {
    const error = leftOf(validateReaderDefinitionReplace(stored(), same({ facility: 'Store2' }), TWO));
    expect(error.status).to.equal(400);
    expect(error.message).to.equal('readerZone and antennaZones must be renamed when the facility or floor changes');
    expect(paths(error)).to.deep.equal(['body.readerZone', 'body.antennaZones.1', 'body.antennaZones.2']);
  });

  it('given a facility change where only some names changed, when replaced, then 400 naming only the unchanged ones', () => {
    const body = same({ facility: 'Store2', readerZone: 'S2Dock', antennaZones: { '1': 'S2Left', '2': 'DockRight' } });
    expect(paths(leftOf(validateReaderDefinitionReplace(stored(), body, TWO)))).to.deep.equal(['body.antennaZones.2']);
  });

  it('given a facility change with every name changed, when replaced, then it is stored', () => {
    const body = same({ facility: 'Store2', readerZone: 'S2Dock', antennaZones: { '1': 'S2Left', '2': 'S2Right' } });
    expect(rightOf(validateReaderDefinitionReplace(stored(), body, TWO)).facility).to.equal('Store2');
  });

  it('given a facility change where the names were removed, when replaced, then removal counts as renamed', () => {
    const body = same({ facility: 'Store2', readerZone: null, antennaZones: null });
    expect(rightOf(validateReaderDefinitionReplace(stored(), body, TWO)).readerZone).to.equal(null);
  });

  it('given a facility change and no zone names before, when replaced, then nothing needs renaming', () => {
    const existing = stored({ readerZone: null, antennaZones: null });
    expect(rightOf(validateReaderDefinitionReplace(existing, same({ facility: 'Store2', readerZone: null, antennaZones: null }), TWO)).facility).to.equal('Store2');
  });

  it('given a floor change to another non-null floor without renaming, when replaced, then 400', () => {
    const error = leftOf(validateReaderDefinitionReplace(stored(), same({ placement: { floor: 2 } }), ONE));
    expect(paths(error)).to.deep.equal(['body.readerZone', 'body.antennaZones.1', 'body.antennaZones.2']);
    expect(error.errors[0]?.reason).to.match(/floor 1 -> 2/);
  });

  it('given a move to an unknown facility, a bad yaw and unrenamed zones, when replaced, then one 400 names them all', () => {
    const error = leftOf(validateReaderDefinitionReplace(stored(), same({ facility: 'Store9', placement: { yaw: 500, floor: 1 } }), TWO));
    expect(paths(error)).to.have.members(['body.facility', 'body.placement.yaw', 'body.readerZone', 'body.antennaZones.1', 'body.antennaZones.2']);
  });

  it('given a removed floor and a bad address, when replaced, then both', () => {
    const error = leftOf(validateReaderDefinitionReplace(stored(), same({ address: 'no host!', placement: { x: 1 } }), ONE));
    expect(paths(error)).to.have.members(['body.address', 'body.placement.floor']);
  });

  it('given a floor change with every name changed, when replaced, then the new floor is stored', () => {
    const body = same({ placement: { floor: '2' }, readerZone: 'F2Dock', antennaZones: { '1': 'F2Left', '2': 'F2Right' } });
    expect(rightOf(validateReaderDefinitionReplace(stored(), body, ONE)).placement?.floor).to.equal('2');
  });

  it('given floor 1 stored and floor "1" sent, when replaced, then it is the same floor (no renaming needed)', () => {
    expect(rightOf(validateReaderDefinitionReplace(stored(), same({ placement: { floor: '1' } }), ONE)).placement?.floor).to.equal('1');
  });

  it('given no floor before, when a first floor is set, then zone names need not change', () => {
    const existing = stored({ placement: { x: 0, y: 0, z: 0, yaw: 0, pitch: 0, roll: 0, floor: null } });
    expect(rightOf(validateReaderDefinitionReplace(existing, same({ placement: { floor: 3 } }), ONE)).placement?.floor).to.equal(3);
  });

  it('given a floor, when replaced with floor null, then 400 at body.placement.floor', () => {
    const error = leftOf(validateReaderDefinitionReplace(stored(), same({ placement: { x: 1, floor: null } }), ONE));
    expect(error.status).to.equal(400);
    expect(paths(error)).to.deep.equal(['body.placement.floor']);
  });

  it('given a floor, when replaced with the floor omitted, then 400 (a replace removes what it omits)', () => {
    expect(paths(leftOf(validateReaderDefinitionReplace(stored(), same({ placement: { x: 1 } }), ONE)))).to.deep.equal(['body.placement.floor']);
  });

  it('given a floor, when replaced with placement null or omitted, then 400 at body.placement', () => {
    expect(paths(leftOf(validateReaderDefinitionReplace(stored(), same({ placement: null }), ONE)))).to.deep.equal(['body.placement']);
    const { placement: _omitted, ...withoutPlacement } = same();
    expect(paths(leftOf(validateReaderDefinitionReplace(stored(), withoutPlacement, ONE)))).to.deep.equal(['body.placement']);
  });

  it('given no floor before, when replaced with placement null, then it is allowed', () => {
    const existing = stored({ placement: { x: 0, y: 0, z: 0, yaw: 0, pitch: 0, roll: 0, floor: null } });
    expect(rightOf(validateReaderDefinitionReplace(existing, same({ placement: null }), ONE)).placement).to.equal(null);
  });

  it('given several facilities and no facility field, when replaced, then 400 at body.facility', () => {
    expect(paths(leftOf(validateReaderDefinitionReplace(stored(), same({ facility: undefined }), TWO)))).to.deep.equal(['body.facility']);
  });
});

describe('readerdefinitions/validate groupsUnion', () => {
  it('given overlapping groups, when united, then each name appears once, sorted', () => {
    expect(groupsUnion([{ groups: ['b', 'a'] }, { groups: ['c', 'a'] }, { groups: [] }])).to.deep.equal(['a', 'b', 'c']);
  });

  it('given no definitions, when united, then the union is empty', () => {
    expect(groupsUnion([])).to.deep.equal([]);
  });
});
