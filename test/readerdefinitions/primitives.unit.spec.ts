import { expect } from 'chai';
import * as t from 'io-ts';
import { Integer, IntegerFromString, IsoTimestamp, NonEmptyString, NonNegativeInteger } from '../../src/readerdefinitions/primitives';
import { decoded, refused } from './support';

describe('readerdefinitions/primitives', () => {
  it('NonEmptyString refuses blank strings and says "is required" when absent', () => {
    expect(decoded(t.type({ s: NonEmptyString }), { s: 'a' })).to.deep.equal({ s: 'a' });
    expect(refused(t.type({ s: NonEmptyString }), { s: ' ' }).errors).to.deep.equal([{ path: 'body.s', reason: 'must be a non-empty string, got " "' }]);
    expect(refused(t.type({ s: NonEmptyString }), {}).errors).to.deep.equal([{ path: 'body.s', reason: 'is required (non-empty string)' }]);
  });

  it('Integer and NonNegativeInteger refuse fractions and (for the latter) negatives', () => {
    expect(decoded(Integer, -3)).to.equal(-3);
    expect(refused(Integer, 1.5).status).to.equal(400);
    expect(decoded(NonNegativeInteger, 0)).to.equal(0);
    expect(refused(NonNegativeInteger, -1).errors[0]?.reason).to.match(/>= 0/);
  });

  it('IntegerFromString reads canonical decimal strings only', () => {
    expect(decoded(IntegerFromString, '42')).to.equal(42);
    for (const bad of ['042', '-1', '1.0', '', 'x', 42]) expect(refused(IntegerFromString, bad).status, String(bad)).to.equal(400);
  });

  it('IsoTimestamp accepts ISO 8601 date-times with a zone only', () => {
    expect(decoded(IsoTimestamp, '2024-01-02T03:04:05.678Z')).to.equal('2024-01-02T03:04:05.678Z');
    expect(decoded(IsoTimestamp, '2024-01-02T03:04:05+02:00')).to.equal('2024-01-02T03:04:05+02:00');
    for (const bad of ['2024-01-02', '2024-01-02T03:04:05', 'yesterday', 0]) expect(refused(IsoTimestamp, bad).status, String(bad)).to.equal(400);
  });
});
