import { expect } from 'chai';
import { ApiError } from '../../src/core/http/errors';
import { decodeInput } from '../../src/core/http/decode';
import { FacilityBody } from '../../src/facilities/codec';

function refusal(body: unknown): ApiError {
  try {
    decodeInput(FacilityBody, body, 'body');
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  return expect.fail('expected the body to be refused');
}

describe('facilities/codec FacilityBody', () => {
  it('accepts {name} and keeps the name exactly as given', () => {
    expect(decodeInput(FacilityBody, { name: ' Store 1' }, 'body')).to.deep.equal({ name: ' Store 1' });
  });

  it('drops unknown fields so they are not stored', () => {
    expect(decodeInput(FacilityBody, { name: 'A', extra: 1 }, 'body')).to.deep.equal({ name: 'A' });
  });

  it('refuses a missing name with 400 at body.name', () => {
    const error = refusal({});
    expect(error.status).to.equal(400);
    expect(error.errors).to.deep.equal([{ path: 'body.name', reason: 'is required (string)' }]);
  });

  it('refuses an empty or blank name', () => {
    expect(refusal({ name: '' }).errors).to.deep.equal([{ path: 'body.name', reason: 'must not be empty' }]);
    expect(refusal({ name: '   ' }).errors).to.deep.equal([{ path: 'body.name', reason: 'must not be empty' }]);
  });

  it('refuses a name that is not a string', () => {
    expect(refusal({ name: 5 }).errors).to.deep.equal([{ path: 'body.name', reason: 'must be a string' }]);
  });
});
