import { expect } from 'chai';
import type { AntennaConfiguration } from '../../src/thresholds/antenna-configuration';
import { antennaConfigurationToResponse, byId, thresholdToResponse } from '../../src/thresholds/response';
import type { Threshold } from '../../src/thresholds/threshold';

const config: AntennaConfiguration = {
  id: 1, name: 'c1', side: 'LEFT', readerType: 'XARRAY', readerArrangement: 'OVERHEAD', in: [{ antennaId: 1 }], out: [], ignored: [],
};
const threshold: Threshold = {
  id: 4, name: 'dock', facility: 'DEFAULT', readerArrangement: 'OVERHEAD',
  readers: { r1: { antennaConfigurationId: 1 }, r2: { antennaConfigurationId: 9 } },
};

describe('thresholds/response', () => {
  it('given no embed, when returned, then readers carry only the id', () => {
    expect(thresholdToResponse(threshold)).to.deep.equal(threshold);
  });

  it('given embed, when returned, then each reader carries its configuration, null if it is gone', () => {
    expect(thresholdToResponse(threshold, [config]).readers).to.deep.equal({
      r1: { antennaConfigurationId: 1, antennaConfiguration: config },
      r2: { antennaConfigurationId: 9, antennaConfiguration: null },
    });
  });

  it('returns copies: mutating a response leaves the stored configuration alone', () => {
    antennaConfigurationToResponse(config).in.push({ antennaId: 5 });
    thresholdToResponse(threshold, [config]).readers.r1?.antennaConfiguration?.out.push({ antennaId: 6 });
    expect(config.in).to.deep.equal([{ antennaId: 1 }]);
    expect(config.out).to.deep.equal([]);
  });

  it('sorts lists by id', () => {
    expect(byId([{ id: 3 }, { id: 1 }, { id: 2 }])).to.deep.equal([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });
});
