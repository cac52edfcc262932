import { expect } from 'chai';
import { validateReaderDefinitionCreate, type FacilityZones } from '../../src/readerdefinitions/validate';
import { isHost } from '../../src/readerdefinitions/rules';
import { leftOf, paths, rightOf } from './support';

const TWO = ['DEFAULT', 'Store2'];
const ZONES: FacilityZones = new Map([['DEFAULT', { name: 'floorplan', zones: new Set(['Dock', 'Aisle 1']) }]]);

describe('readerdefinitions/rules', () => {
  it('given yaw, pitch or roll past a full turn, when created, then 400 naming each; a full turn either way is kept', () => {
    const e = leftOf(validateReaderDefinitionCreate({ name: 'r', facility: 'DEFAULT', placement: { yaw: 400, pitch: -361, roll: 10 } }, TWO));
    expect(paths(e)).to.deep.equal(['body.placement.yaw', 'body.placement.pitch']);
    expect(e.errors[0]?.reason).to.contain('between -360 and 360');
    expect(rightOf(validateReaderDefinitionCreate({ name: 'r', facility: 'DEFAULT', placement: { yaw: -360, pitch: 360, roll: -90.5 } }, TWO)).placement?.yaw).to.equal(-360);
  });

  it('given addresses people type, when checked, then host names, IPv4 and IPv6 pass and the rest do not', () => {
    const hosts = ['xarray-11-30-0d.local', 'xarray-11-30-0D', '10.0.0.12', 'reader_7.corp.example.', '::1', 'fe80::1%eth0', '[2001:db8::5]', 'localhost'];
    const notHosts = ['not a host!!', 'http://10.0.0.1', '10.0.0.1:5084', 'a/b', '-lead.example', 'a..b', '256.1.1.1', '10.0.0'];
    expect(hosts.filter((h) => !isHost(h))).to.deep.equal([]);
    expect(notHosts.filter((h) => isHost(h))).to.deep.equal([]);
  });

  it('given a bad address, when created, then 400 at body.address; blank and null stay allowed without a connection', () => {
    expect(paths(leftOf(validateReaderDefinitionCreate({ name: 'r', facility: 'DEFAULT', address: 'not a host!!' }, TWO)))).to.deep.equal(['body.address']);
    expect(rightOf(validateReaderDefinitionCreate({ name: 'r', facility: 'DEFAULT', address: '' }, TWO)).address).to.equal('');
    expect(rightOf(validateReaderDefinitionCreate({ name: 'r', facility: 'DEFAULT', address: null }, TWO)).address).to.equal(null);
  });

  it('given antenna ids the reader type does not have, when created, then 400 naming each key; polarized forms of its ports pass', () => {
    const e = leftOf(validateReaderDefinitionCreate({ name: 'r', facility: 'DEFAULT', type: 'XSPAN', antennaZones: { '13': 'Dock', '14': 'Dock', '1013': 'Dock', '2014': 'Dock' } }, TWO));
    expect(paths(e)).to.deep.equal(['body.antennaZones.14', 'body.antennaZones.2014']);
    expect(e.errors[0]?.reason).to.contain('a XSPAN reader has antennas 1-13');
    expect(paths(leftOf(validateReaderDefinitionCreate({ name: 'r', facility: 'DEFAULT', type: 'XPORTAL', antennaZones: { '5': 'Dock' } }, TWO)))).to.deep.equal(['body.antennaZones.5']);
    expect(rightOf(validateReaderDefinitionCreate({ name: 'r', facility: 'DEFAULT', type: 'XARRAY', antennaZones: { '52': 'Dock', '2052': 'Dock' } }, TWO)).antennaZones).to.deep.equal({ '52': 'Dock', '2052': 'Dock' });
    // Without a type, any id of the interface's range.
    expect(rightOf(validateReaderDefinitionCreate({ name: 'r', facility: 'DEFAULT', antennaZones: { '52': 'Dock' } }, TWO)).antennaZones).to.deep.equal({ '52': 'Dock' });
  });

  it('given zone names the facility\'s current zone map lacks, when created, then 400 naming each field and the zones it has', () => {
    const e = leftOf(validateReaderDefinitionCreate({ name: 'r', facility: 'DEFAULT', readerZone: 'dock', antennaZones: { '1': 'Dock', '2': 'Aisle 2' } }, TWO, ZONES));
    expect(paths(e)).to.deep.equal(['body.readerZone', 'body.antennaZones.2']);
    expect(e.errors[0]?.reason).to.equal('zone "dock" is not in zone map floorplan (the facility\'s current one: Aisle 1, Dock)');
    expect(rightOf(validateReaderDefinitionCreate({ name: 'r', facility: 'DEFAULT', readerZone: 'Dock', antennaZones: { '1': 'Aisle 1' } }, TWO, ZONES)).readerZone).to.equal('Dock');
  });

  it('given a facility without a current zone map, when created with any zone names, then they are stored', () => {
    expect(rightOf(validateReaderDefinitionCreate({ name: 'r', facility: 'Store2', readerZone: 'Anything' }, TWO, ZONES)).readerZone).to.equal('Anything');
  });

  it('given several problems in one body, when created, then one 400 lists every one of them', () => {
    const e = leftOf(
      validateReaderDefinitionCreate(
        { name: 'r', facility: 'Nowhere', address: 'not a host!!', type: 'SPEEDWAY', placement: { yaw: 400 }, antennaZones: { '33': 'Dock' }, connection: { protocol: 'LLRP' } },
        TWO,
        ZONES,
      ),
    );
    expect(paths(e)).to.deep.equal(['body.facility', 'body.placement.yaw', 'body.address', 'body.antennaZones.33']);
    expect(e.message).to.contain('(and 3 more)');
  });
});
