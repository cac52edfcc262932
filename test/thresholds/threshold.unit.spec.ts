import { expect } from 'chai';
import {
  ThresholdBody,
  ThresholdParams,
  ThresholdShowQuery,
  validateThresholdCreate,
  validateThresholdCreateOrReplace,
  type ThresholdContext,
} from '../../src/thresholds/threshold';
import { decoded, leftOf, paths, refused, rightOf } from '../readerdefinitions/support';

const ctx: ThresholdContext = {
  facilityNames: ['DEFAULT'],
  readerDefinitions: [
    { name: 'r1', facility: 'DEFAULT' },
    { name: 'r2', facility: 'DEFAULT' },
  ],
  antennaConfigurationIds: [1, 2],
};
const two: ThresholdContext = {
  ...ctx,
  facilityNames: ['DEFAULT', 'Store2'],
  readerDefinitions: [...ctx.readerDefinitions, { name: 's2', facility: 'Store2' }],
};
const body = { name: 'dock-1', readerArrangement: 'SIDE_BY_SIDE', readers: { r1: { antennaConfigurationId: 1 }, r2: { antennaConfigurationId: 2 } } };

describe('thresholds/threshold codec', () => {
  it('given name, readerArrangement and readers, when decoded, then accepted', () => {
    expect(decoded(ThresholdBody, body)).to.deep.equal(body);
  });

  it('given no name or readerArrangement, when decoded, then 400 naming both', () => {
    expect(paths(refused(ThresholdBody, {}))).to.deep.equal(['body.name', 'body.readerArrangement']);
  });

  it('given a reader entry without an integer antennaConfigurationId, when decoded, then 400 at its path', () => {
    expect(paths(refused(ThresholdBody, { ...body, readers: { r1: { antennaConfigurationId: 'a' } } }))).to.deep.equal([
      'body.readers.r1.antennaConfigurationId',
    ]);
  });

  it('reads the path id and embed=antennaConfiguration', () => {
    expect(decoded(ThresholdParams, { id: '4' })).to.deep.equal({ id: 4 });
    expect(decoded(ThresholdShowQuery, { embed: 'antennaConfiguration' })).to.deep.equal({ embed: 'antennaConfiguration' });
    expect(paths(refused(ThresholdShowQuery, { embed: 'readers' }))).to.deep.equal(['body.embed']);
  });
});

describe('thresholds/threshold validate', () => {
  it('given one facility and valid references, when created, then the next id and the only facility are used', () => {
    expect(rightOf(validateThresholdCreate(decoded(ThresholdBody, { ...body, id: 50 }), [1, 2], ctx))).to.deep.equal({
      id: 3, name: 'dock-1', facility: 'DEFAULT', readerArrangement: 'SIDE_BY_SIDE', readers: body.readers,
    });
  });

  it('given no readers, when created, then readers is {}', () => {
    expect(rightOf(validateThresholdCreate(decoded(ThresholdBody, { name: 't', readerArrangement: 'CUSTOM' }), [], ctx)).readers).to.deep.equal({});
  });

  it('given several facilities and no facility, when created, then 400 at body.facility', () => {
    expect(paths(leftOf(validateThresholdCreate(decoded(ThresholdBody, body), [], two)))).to.deep.equal(['body.facility']);
  });

  it('given an unknown facility, when created, then refused at body.facility', () => {
    expect(paths(leftOf(validateThresholdCreate(decoded(ThresholdBody, { ...body, facility: 'X' }), [], two)))).to.deep.equal(['body.facility']);
  });

  it('given unknown readers and antenna configurations, when created, then 422 naming each', () => {
    const bad = { ...body, readers: { ghost: { antennaConfigurationId: 1 }, r1: { antennaConfigurationId: 9 } } };
    const error = leftOf(validateThresholdCreate(decoded(ThresholdBody, bad), [], ctx));
    expect(error.status).to.equal(422);
    expect(paths(error)).to.deep.equal(['body.readers.ghost', 'body.readers.r1.antennaConfigurationId']);
  });

  it('given a reader of another facility, when created, then 422 naming it', () => {
    const bad = { ...body, facility: 'DEFAULT', readers: { s2: { antennaConfigurationId: 1 } } };
    const error = leftOf(validateThresholdCreate(decoded(ThresholdBody, bad), [], two));
    expect(error.status).to.equal(422);
    expect(error.errors).to.deep.equal([{ path: 'body.readers.s2', reason: 'reader is in facility Store2, the threshold in DEFAULT' }]);
  });

  it('given createOrReplace with an id, when validated, then that id is kept; without one a new id is assigned', () => {
    expect(rightOf(validateThresholdCreateOrReplace(decoded(ThresholdBody, { ...body, id: 2 }), [1, 2], ctx)).id).to.equal(2);
    expect(rightOf(validateThresholdCreateOrReplace(decoded(ThresholdBody, body), [1, 2], ctx)).id).to.equal(3);
  });

  it('given an id that is not a positive integer, when decoded, then 400 at body.id', () => {
    expect(paths(refused(ThresholdBody, { ...body, id: 0 }))).to.deep.equal(['body.id']);
  });
});
