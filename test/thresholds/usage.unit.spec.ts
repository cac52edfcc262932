import { expect } from 'chai';
import type { Threshold } from '../../src/thresholds/threshold';
import {
  deleteAntennaConfiguration,
  thresholdsUsingAntennaConfiguration,
  thresholdsUsingReader,
} from '../../src/thresholds/usage';
import { leftOf, paths, rightOf } from '../readerdefinitions/support';

const th = (id: number, readers: Threshold['readers']): Threshold => ({
  id, name: `t${id}`, facility: 'DEFAULT', readerArrangement: 'OVERHEAD', readers,
});
const t1 = th(1, { r1: { antennaConfigurationId: 1 }, r2: { antennaConfigurationId: 2 } });
const t2 = th(2, { r3: { antennaConfigurationId: 1 } });
const t3 = th(3, { r1: { antennaConfigurationId: 2 } });
const all = [t1, t2, t3];

describe('thresholds/usage lookups', () => {
  it('finds the thresholds using an antenna configuration or a reader', () => {
    expect(thresholdsUsingAntennaConfiguration(1, all).map((t) => t.id)).to.deep.equal([1, 2]);
    expect(thresholdsUsingAntennaConfiguration(3, all)).to.deep.equal([]);
    expect(thresholdsUsingReader('r1', all).map((t) => t.id)).to.deep.equal([1, 3]);
    expect(thresholdsUsingReader('toString', all)).to.deep.equal([]);
  });
});

describe('thresholds/usage deleteAntennaConfiguration', () => {
  it('given an unknown id, when deleted, then 404', () => {
    expect(leftOf(deleteAntennaConfiguration(9, undefined, [1, 2], all)).status).to.equal(404);
  });

  it('given an unused configuration and no replacement, when deleted, then nothing is rewritten', () => {
    expect(rightOf(deleteAntennaConfiguration(3, undefined, [1, 2, 3], all))).to.deep.equal({ rewritten: [] });
  });

  it('given a configuration in use and no replacement, when deleted, then 409 naming the thresholds and their readers', () => {
    const error = leftOf(deleteAntennaConfiguration(1, undefined, [1, 2], all));
    expect(error.status).to.equal(409);
    expect(error.message).to.equal('Antenna configuration 1 is used by thresholds 1 ("t1"), 2 ("t2"); give a replacementId');
    expect(error.errors).to.deep.equal([
      { path: 'thresholds.1', reason: 'readers r1 use antenna configuration 1' },
      { path: 'thresholds.2', reason: 'readers r3 use antenna configuration 1' },
    ]);
  });

  it('given a replacement, when deleted, then exactly the referencing entries point at the replacement', () => {
    const { rewritten } = rightOf(deleteAntennaConfiguration(1, 2, [1, 2], all));
    expect(rewritten).to.deep.equal([
      th(1, { r1: { antennaConfigurationId: 2 }, r2: { antennaConfigurationId: 2 } }),
      th(2, { r3: { antennaConfigurationId: 2 } }),
    ]);
    expect(t1.readers.r1?.antennaConfigurationId).to.equal(1); // inputs untouched
  });

  it('given the deleted id as its own replacement, when deleted, then 400 at query.replacementId', () => {
    const error = leftOf(deleteAntennaConfiguration(1, 1, [1, 2], all));
    expect(error.status).to.equal(400);
    expect(paths(error)).to.deep.equal(['query.replacementId']);
  });

  it('given a replacement that does not exist, when deleted, then 422 even if nothing uses the configuration', () => {
    expect(leftOf(deleteAntennaConfiguration(1, 7, [1, 2], all)).status).to.equal(422);
    expect(paths(leftOf(deleteAntennaConfiguration(2, 7, [1, 2], [])))).to.deep.equal(['query.replacementId']);
  });
});
