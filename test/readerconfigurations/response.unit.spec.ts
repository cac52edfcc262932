import { expect } from 'chai';
import { isRight } from 'fp-ts/Either';
import { ReaderConfiguration } from '../../src/readerconfigurations/model';
import { toResponse } from '../../src/readerconfigurations/response';
import { validateReaderConfiguration as validate } from '../../src/readerconfigurations/validate';
import { expectValid } from './helpers';
import { inventoryBody, locationBody, normalBody, thresholdBody } from './fixtures';

describe('reader configuration toResponse', () => {
  it('given a minimal INVENTORY configuration, then every INVENTORY field is present, unset ones null', () => {
    const response = toResponse(expectValid(validate(inventoryBody())));
    expect(response).to.deep.equal({
      name: 'inv',
      operation: 'INVENTORY',
      configuration: {
        readerMode: 'MAX_THROUGHPUT',
        session: 2,
        searchMode: 'DUAL_TARGET',
        filter: null,
        tagPopulationEstimate: null,
        transmitPowerInDbm: null,
        polarization: null,
        antennas: null,
        channelConfig: null,
      },
    });
  });

  it('given LOCATION, then only LOCATION fields are returned (the Java client fails on others)', () => {
    const response = toResponse(expectValid(validate(locationBody({ disabledAntennas: [5] }))));
    expect(response.configuration).to.deep.equal({
      readerMode: 'MAX_MILLER',
      session: 2,
      filter: null,
      transmitPowerInDbm: null,
      disabledAntennas: [5],
    });
  });

  it('given THRESHOLD and NORMAL, then their own field sets are returned', () => {
    expect(Object.keys(toResponse(expectValid(validate(thresholdBody()))).configuration)).to.have.members([
      'readerMode',
      'session',
      'searchMode',
      'filter',
      'tagPopulationEstimate',
      'transmitPowerInDbm',
      'polarization',
      'channelConfig',
    ]);
    expect(Object.keys(toResponse(expectValid(validate(normalBody()))).configuration)).to.have.members([
      'readerMode',
      'session',
      'filter',
      'transmitPowerInDbm',
      'reportConfig',
    ]);
  });

  it('given DO_NOTHING, then configuration is an empty object', () => {
    expect(toResponse(expectValid(validate({ name: 'off', operation: 'DO_NOTHING' })))).to.deep.equal({
      name: 'off',
      operation: 'DO_NOTHING',
      configuration: {},
    });
  });

  it('given nested optional objects, then their unset fields are null and the filter is complete', () => {
    const rc = expectValid(
      validate(inventoryBody({ filter: { tagMask: 'E2' }, channelConfig: { channelIndex: 4 } })),
    );
    expect(toResponse(rc).configuration).to.deep.include({
      filter: { tagMask: 'E2', memoryBank: 1, pointer: 32 },
      channelConfig: { channelIndex: 4, txFrequenciesInMhz: null },
    });
    const normal = expectValid(validate(normalBody({ reportConfig: { channelIncluded: true } })));
    expect(toResponse(normal).configuration.reportConfig).to.deep.equal({
      tidIncluded: null,
      peakRssiIncluded: null,
      phaseAngleIncluded: null,
      dopplerFrequencyIncluded: null,
      channelIncluded: true,
    });
  });

  it('given a response sent back as a request, then it validates to the same stored document', () => {
    const bodies = [
      inventoryBody({ filter: { tagMask: 'E2' }, antennas: [1, 1001], polarization: true, channelConfig: { channelIndex: 2 } }),
      locationBody({ disabledAntennas: [] }),
      thresholdBody({ searchMode: 'DUAL_TARGET_WITH_BTOASELECT' }),
      normalBody({ reportConfig: { tidIncluded: true } }),
      { name: 'off', operation: 'DO_NOTHING' },
    ];
    for (const body of bodies) {
      const stored = expectValid(validate(body));
      expect(expectValid(validate(toResponse(stored)))).to.deep.equal(stored);
    }
  });

  it('given a stored document, then the stored codec (the event data codec) accepts it', () => {
    for (const body of [inventoryBody({ filter: { tagMask: 'AA' } }), locationBody(), { name: 'off', operation: 'DO_NOTHING' }]) {
      expect(isRight(ReaderConfiguration.decode(expectValid(validate(body))))).to.equal(true);
    }
  });
});
