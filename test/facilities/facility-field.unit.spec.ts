import { expect } from 'chai';
import * as E from 'fp-ts/Either';
import { ApiError } from '../../src/core/http/errors';
import { resolveFacility } from '../../src/facilities/facility-field';

function failure(result: E.Either<ApiError, string>): ApiError {
  if (E.isRight(result)) return expect.fail(`expected a refusal, got ${result.right}`);
  return result.left;
}

describe('facilities/resolveFacility (single/several-facility rule)', () => {
  describe('given only DEFAULT exists', () => {
    const facilities = ['DEFAULT'];

    it('when the field is omitted, then it means the only facility', () => {
      expect(resolveFacility(undefined, facilities)).to.deep.equal(E.right('DEFAULT'));
    });

    it('when the field is null, then it counts as omitted', () => {
      expect(resolveFacility(null, facilities)).to.deep.equal(E.right('DEFAULT'));
    });

    it('when the field names it, then it is accepted', () => {
      expect(resolveFacility('DEFAULT', facilities)).to.deep.equal(E.right('DEFAULT'));
    });

    it('when the field names another facility, then 400 unknown facility at body.facility', () => {
      const error = failure(resolveFacility('STORE', facilities));
      expect(error.status).to.equal(400);
      expect(error.message).to.equal('unknown facility "STORE"');
      expect(error.errors).to.deep.equal([{ path: 'body.facility', reason: 'unknown facility "STORE"' }]);
    });

    it('when the field is an empty string, then it is an unknown facility, not an omission', () => {
      expect(failure(resolveFacility('', facilities)).errors[0]?.reason).to.equal('unknown facility ""');
    });
  });

  describe('given several facilities', () => {
    const facilities = ['DEFAULT', 'STORE'];

    it('when the field is omitted, then 400 naming body.facility as required', () => {
      const error = failure(resolveFacility(undefined, facilities));
      expect(error.status).to.equal(400);
      expect(error.message).to.contain('required when more than one facility exists');
      expect(error.errors).to.deep.equal([
        { path: 'body.facility', reason: 'required when more than one facility exists' },
      ]);
    });

    it('when the field is null, then it is refused like an omission', () => {
      expect(failure(resolveFacility(null, facilities)).errors[0]?.path).to.equal('body.facility');
    });

    it('when the field names one of them, then that one is used', () => {
      expect(resolveFacility('STORE', facilities)).to.deep.equal(E.right('STORE'));
    });

    it('when the field names none of them, then 400 unknown facility', () => {
      expect(failure(resolveFacility('WAREHOUSE', facilities)).errors).to.deep.equal([
        { path: 'body.facility', reason: 'unknown facility "WAREHOUSE"' },
      ]);
    });

    it('when a path is given, then errors use it', () => {
      expect(failure(resolveFacility(undefined, facilities, 'body.job.facility')).errors[0]?.path).to.equal(
        'body.job.facility',
      );
    });
  });

  it('given no facility at all, when omitted, then 400 rather than a crash', () => {
    expect(failure(resolveFacility(undefined, [])).errors[0]?.reason).to.contain('no facility exists');
  });
});
