import { expect } from 'chai';
import { validateReaderConfiguration as validate } from '../../src/readerconfigurations/validate';
import { expectInvalid, expectValid } from './helpers';
import { inventoryBody, locationBody, normalBody, thresholdBody } from './fixtures';

const P = 'body.configuration';

describe('validateReaderConfiguration: fields reserved to an operation', () => {
  const inventoryOnlyValues = {
    tagPopulationEstimate: 50,
    polarization: true,
    antennas: [1, 2],
    channelConfig: { channelIndex: 1 },
  };

  it('given the INVENTORY fields on INVENTORY, then they are stored', () => {
    const rc = expectValid(validate(inventoryBody(inventoryOnlyValues)));
    expect(rc.configuration).to.deep.include(inventoryOnlyValues);
  });

  for (const [field, value] of Object.entries(inventoryOnlyValues)) {
    it(`given ${field} on LOCATION or NORMAL, then 400 at ${P}.${field}`, () => {
      expectInvalid(validate(locationBody({ [field]: value })), `${P}.${field}`, /applies only to operation INVENTORY.*not LOCATION/);
      expectInvalid(validate(normalBody({ [field]: value })), `${P}.${field}`, /not NORMAL/);
    });
  }

  it('given antennas on THRESHOLD, then 400 (its antennas come from antenna configurations)', () => {
    expectInvalid(validate(thresholdBody({ antennas: [1] })), `${P}.antennas`, /only to operation INVENTORY, not THRESHOLD/);
  });

  it('given tagPopulationEstimate, polarization and channelConfig on THRESHOLD, then they are kept (Java client field set)', () => {
    const values = { tagPopulationEstimate: 10, polarization: false, channelConfig: { txFrequenciesInMhz: [902.75] } };
    expect(expectValid(validate(thresholdBody(values))).configuration).to.deep.include(values);
  });

  it('given disabledAntennas on LOCATION, then stored; on any other operation, then 400', () => {
    expect(expectValid(validate(locationBody({ disabledAntennas: [3, 4] }))).configuration).to.deep.include({
      disabledAntennas: [3, 4],
    });
    for (const body of [inventoryBody, thresholdBody, normalBody]) {
      expectInvalid(validate(body({ disabledAntennas: [3] })), `${P}.disabledAntennas`, /only to operation LOCATION/);
    }
  });

  it('given reportConfig on NORMAL, then stored; on any other operation, then 400', () => {
    const reportConfig = { tidIncluded: true, peakRssiIncluded: false };
    expect(expectValid(validate(normalBody({ reportConfig }))).configuration).to.deep.include({ reportConfig });
    for (const body of [inventoryBody, locationBody, thresholdBody]) {
      expectInvalid(validate(body({ reportConfig })), `${P}.reportConfig`, /only to operation NORMAL/);
    }
    expectInvalid(validate(normalBody({ reportConfig: { tidIncluded: 'yes' } })), `${P}.reportConfig.tidIncluded`);
  });

  it('given filter and transmitPowerInDbm, then every active operation takes them', () => {
    const values = { filter: { tagMask: 'E280' }, transmitPowerInDbm: 30 };
    for (const body of [inventoryBody, locationBody, thresholdBody, normalBody]) expectValid(validate(body(values)));
  });
});

describe('validateReaderConfiguration: antennas', () => {
  it('given ids 1-52 without polarization, then valid; 0, 53 and polarized ids are refused at their index', () => {
    expectValid(validate(inventoryBody({ antennas: [1, 26, 52] })));
    expectInvalid(validate(inventoryBody({ antennas: [1, 0] })), `${P}.antennas.1`, /1-52.*got 0/);
    expectInvalid(validate(inventoryBody({ antennas: [53] })), `${P}.antennas.0`, /got 53/);
    expectInvalid(validate(inventoryBody({ antennas: [1001] })), `${P}.antennas.0`, /need polarization/);
    expectInvalid(validate(inventoryBody({ antennas: [2001], polarization: false })), `${P}.antennas.0`);
  });

  it('given polarization true, then 1-52, 1001-1052 and 2001-2052 are valid', () => {
    const antennas = [1, 52, 1001, 1052, 2001, 2052];
    expect(expectValid(validate(inventoryBody({ antennas, polarization: true }))).configuration).to.deep.include({ antennas });
  });

  it('given polarization true, then ids between and beyond the ranges are refused', () => {
    for (const id of [0, 53, 1000, 1053, 2000, 2053, 3001]) {
      expectInvalid(validate(inventoryBody({ antennas: [id], polarization: true })), `${P}.antennas.0`, /1001-1052 or 2001-2052/);
    }
  });

  it('given an empty antenna list, then 400 (omit the field to use every antenna)', () => {
    expectInvalid(validate(inventoryBody({ antennas: [] })), `${P}.antennas`, /at least one antenna/);
  });

  it('given a non-integer antenna id, then 400 at its index', () => {
    expectInvalid(validate(inventoryBody({ antennas: [1, 2.5] })), `${P}.antennas.1`, /integer/);
  });

  it('given disabledAntennas, then ids are 1-52 and an empty list is valid', () => {
    expectValid(validate(locationBody({ disabledAntennas: [] })));
    expectValid(validate(locationBody({ disabledAntennas: [1, 52] })));
    expectInvalid(validate(locationBody({ disabledAntennas: [2, 53] })), `${P}.disabledAntennas.1`, /got 53/);
    expectInvalid(validate(locationBody({ disabledAntennas: [1001] })), `${P}.disabledAntennas.0`);
  });
});

describe('validateReaderConfiguration: filter', () => {
  it('given only a tagMask, then memoryBank 1 and pointer 32 are filled in', () => {
    const rc = expectValid(validate(inventoryBody({ filter: { tagMask: 'E2801160' } })));
    expect(rc.configuration).to.deep.include({ filter: { tagMask: 'E2801160', memoryBank: 1, pointer: 32 } });
  });

  it('given every field, then they are kept; null memoryBank and pointer take the defaults', () => {
    const filter = { tagMask: 'abcdef', memoryBank: 2, pointer: 0 };
    expect(expectValid(validate(inventoryBody({ filter }))).configuration).to.deep.include({ filter });
    const withNulls = { tagMask: 'AB', memoryBank: null, pointer: null };
    expect(expectValid(validate(inventoryBody({ filter: withNulls }))).configuration).to.deep.include({
      filter: { tagMask: 'AB', memoryBank: 1, pointer: 32 },
    });
  });

  it('given no tagMask, or one that is not hexadecimal, then 400 at filter.tagMask', () => {
    expectInvalid(validate(inventoryBody({ filter: { memoryBank: 1 } })), `${P}.filter.tagMask`, /is required/);
    expectInvalid(validate(inventoryBody({ filter: { tagMask: 'E28G' } })), `${P}.filter.tagMask`, /hexadecimal/);
    expectInvalid(validate(inventoryBody({ filter: { tagMask: '' } })), `${P}.filter.tagMask`, /hexadecimal/);
    expectInvalid(validate(inventoryBody({ filter: { tagMask: 123 } })), `${P}.filter.tagMask`);
  });

  it('given memoryBank 0-3, then valid; anything else is refused', () => {
    for (const memoryBank of [0, 1, 2, 3]) expectValid(validate(inventoryBody({ filter: { tagMask: 'AA', memoryBank } })));
    expectInvalid(validate(inventoryBody({ filter: { tagMask: 'AA', memoryBank: 4 } })), `${P}.filter.memoryBank`, /Reserved/);
  });

  it('given a negative or fractional pointer, then 400 at filter.pointer', () => {
    expectInvalid(validate(inventoryBody({ filter: { tagMask: 'AA', pointer: -1 } })), `${P}.filter.pointer`, />= 0/);
    expectInvalid(validate(inventoryBody({ filter: { tagMask: 'AA', pointer: 1.5 } })), `${P}.filter.pointer`);
  });

  it('given a filter that is no object, then 400 at filter', () => {
    expectInvalid(validate(inventoryBody({ filter: 'E280' })), `${P}.filter`);
  });
});

describe('validateReaderConfiguration: channelConfig and numbers', () => {
  it('given a channelIndex, a hop table, or both, then valid (repeats allowed)', () => {
    expectValid(validate(inventoryBody({ channelConfig: { channelIndex: 3 } })));
    expectValid(validate(inventoryBody({ channelConfig: { txFrequenciesInMhz: [915.25, 902.75, 915.25] } })));
    expectValid(validate(inventoryBody({ channelConfig: { channelIndex: 1, txFrequenciesInMhz: [902.75] } })));
  });

  it('given an empty channelConfig, then 400 at channelConfig', () => {
    expectInvalid(validate(inventoryBody({ channelConfig: {} })), `${P}.channelConfig`, /channelIndex or txFrequenciesInMhz/);
    expectInvalid(validate(inventoryBody({ channelConfig: { channelIndex: null } })), `${P}.channelConfig`);
  });

  it('given a channelIndex that is not a positive integer, then 400 at channelConfig.channelIndex', () => {
    for (const channelIndex of [0, -1, 1.5]) {
      expectInvalid(validate(inventoryBody({ channelConfig: { channelIndex } })), `${P}.channelConfig.channelIndex`, />= 1/);
    }
  });

  it('given a non-positive frequency or an empty hop table, then 400 at the frequency or the table', () => {
    const at = `${P}.channelConfig.txFrequenciesInMhz`;
    expectInvalid(validate(inventoryBody({ channelConfig: { txFrequenciesInMhz: [902.75, 0] } })), `${at}.1`, /> 0/);
    expectInvalid(validate(inventoryBody({ channelConfig: { txFrequenciesInMhz: [] } })), at, /at least one/);
  });

  it('given transmitPowerInDbm within 0-33 dBm, then valid; outside it (no region permits it) or a non-number, refused naming the field', () => {
    for (const transmitPowerInDbm of [10, 33, 32.5, 0]) {
      expect(expectValid(validate(inventoryBody({ transmitPowerInDbm }))).configuration).to.include({ transmitPowerInDbm });
    }
    for (const transmitPowerInDbm of [-5, 33.25, 40, 99]) {
      expectInvalid(validate(inventoryBody({ transmitPowerInDbm })), `${P}.transmitPowerInDbm`, /between 0 and 33 dBm/);
    }
    expectInvalid(validate(inventoryBody({ transmitPowerInDbm: '30' })), `${P}.transmitPowerInDbm`, /number/);
  });

  it('given tagPopulationEstimate, then it must be an integer >= 1', () => {
    expectValid(validate(inventoryBody({ tagPopulationEstimate: 1 })));
    expectInvalid(validate(inventoryBody({ tagPopulationEstimate: 0 })), `${P}.tagPopulationEstimate`, />= 1/);
    expectInvalid(validate(inventoryBody({ tagPopulationEstimate: 2.5 })), `${P}.tagPopulationEstimate`);
  });

  it('given a polarization that is not a boolean, then 400 at polarization', () => {
    expectInvalid(validate(inventoryBody({ polarization: 'yes' })), `${P}.polarization`);
  });
});
