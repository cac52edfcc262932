import { expect } from 'chai';
import {
  AntennaConfigurationBody,
  AntennaConfigurationParams,
  DeleteAntennaConfigurationQuery,
  validateAntennaConfigurationCreate,
  validateAntennaConfigurationReplace,
} from '../../src/thresholds/antenna-configuration';
import { nextId } from '../../src/thresholds/ids';
import { decoded, leftOf, paths, refused, rightOf } from '../readerdefinitions/support';

const body = {
  name: 'dock-door-left',
  side: 'LEFT',
  readerType: 'XARRAY',
  readerArrangement: 'OVERHEAD',
  in: [{ antennaId: 1 }, { antennaId: 2 }],
  out: [{ antennaId: 3 }],
};

describe('thresholds/antenna-configuration codec', () => {
  it('given the published example shape, when decoded, then accepted', () => {
    expect(decoded(AntennaConfigurationBody, body)).to.deep.equal(body);
  });

  it('given no name, side, readerType or readerArrangement, when decoded, then 400 naming each', () => {
    expect(paths(refused(AntennaConfigurationBody, {}))).to.deep.equal(['body.name', 'body.side', 'body.readerType', 'body.readerArrangement']);
  });

  it('given values outside the enums, when decoded, then 400 (side LEFT|RIGHT; four arrangements; four reader families)', () => {
    for (const side of ['LEFT', 'RIGHT']) expect(decoded(AntennaConfigurationBody, { ...body, side }).side).to.equal(side);
    for (const a of ['SIDE_BY_SIDE', 'OVERHEAD', 'OVERHEAD_OFFSET', 'CUSTOM']) {
      expect(decoded(AntennaConfigurationBody, { ...body, readerArrangement: a }).readerArrangement).to.equal(a);
    }
    expect(paths(refused(AntennaConfigurationBody, { ...body, side: 'TOP', readerArrangement: 'X', readerType: 'R700' }))).to.deep.equal([
      'body.side', 'body.readerType', 'body.readerArrangement',
    ]);
  });

  it('given an antennaId that is not an integer, when decoded, then 400 at its path', () => {
    expect(paths(refused(AntennaConfigurationBody, { ...body, ignored: [{ antennaId: '4' }] }))).to.deep.equal(['body.ignored.0.antennaId']);
  });

  it('reads the path id and the optional replacementId query as integers', () => {
    expect(decoded(AntennaConfigurationParams, { antennaConfigurationID: '12' })).to.deep.equal({ antennaConfigurationID: 12 });
    expect(decoded(DeleteAntennaConfigurationQuery, {})).to.deep.equal({});
    expect(decoded(DeleteAntennaConfigurationQuery, { replacementId: '3' })).to.deep.equal({ replacementId: 3 });
    expect(paths(refused(DeleteAntennaConfigurationQuery, { replacementId: 'x' }))).to.deep.equal(['body.replacementId']);
  });
});

describe('thresholds/antenna-configuration validate', () => {
  it('given existing ids, when created, then the next id is assigned, the body id ignored and missing lists are []', () => {
    const created = rightOf(validateAntennaConfigurationCreate(decoded(AntennaConfigurationBody, { ...body, id: 99, out: null }), [1, 4, 2]));
    expect(created).to.deep.equal({ ...body, id: 5, out: [], ignored: [] });
  });

  it('given an antenna in both in and out, when validated, then 400 naming the second occurrence', () => {
    const error = leftOf(validateAntennaConfigurationCreate(decoded(AntennaConfigurationBody, { ...body, out: [{ antennaId: 2 }] }), []));
    expect(error.status).to.equal(400);
    expect(error.errors).to.deep.equal([{ path: 'body.out.0.antennaId', reason: 'antenna 2 is already listed at body.in.1.antennaId' }]);
  });

  it('given an antenna in ignored and in, or twice in one list, when validated, then 400', () => {
    expect(paths(leftOf(validateAntennaConfigurationCreate(decoded(AntennaConfigurationBody, { ...body, ignored: [{ antennaId: 1 }] }), [])))).to.deep.equal(['body.ignored.0.antennaId']);
    expect(paths(leftOf(validateAntennaConfigurationCreate(decoded(AntennaConfigurationBody, { ...body, in: [{ antennaId: 1 }, { antennaId: 1 }] }), [])))).to.deep.equal(['body.in.1.antennaId']);
  });

  it('given an antenna id outside the known ranges, when validated, then 400', () => {
    expect(paths(leftOf(validateAntennaConfigurationCreate(decoded(AntennaConfigurationBody, { ...body, out: [{ antennaId: 0 }] }), [])))).to.deep.equal(['body.out.0.antennaId']);
  });

  it('given a replace with the path id and no body id or the same body id, when validated, then it keeps the path id', () => {
    expect(rightOf(validateAntennaConfigurationReplace(7, decoded(AntennaConfigurationBody, body))).id).to.equal(7);
    expect(rightOf(validateAntennaConfigurationReplace(7, decoded(AntennaConfigurationBody, { ...body, id: 7 }))).id).to.equal(7);
  });

  it('given a replace whose body id differs from the path id, when validated, then 400 at body.id', () => {
    const error = leftOf(validateAntennaConfigurationReplace(7, decoded(AntennaConfigurationBody, { ...body, id: 8 })));
    expect(error.status).to.equal(400);
    expect(paths(error)).to.deep.equal(['body.id']);
  });
});

describe('thresholds/ids nextId', () => {
  it('gives 1 for the first and max + 1 after, never filling gaps', () => {
    expect(nextId([])).to.equal(1);
    expect(nextId([3, 1])).to.equal(4);
    expect(nextId(new Set([2]))).to.equal(3);
  });
});
