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
    expect(decodeInput(FacilityBody, { name: 'Store  1' }, 'body')).to.deep.equal({ name: 'Store  1' });
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

  it('refuses names that cannot be stored or addressed: too long, control characters, lone surrogates, . and ..', () => {
    expect(decodeInput(FacilityBody, { name: 'x'.repeat(256) }, 'body').name).to.have.length(256);
    const reasons = (name: string) => refusal({ name }).errors.map((e) => e.reason);
    expect(reasons('x'.repeat(257))).to.deep.equal(['must be at most 256 characters, got 257']);
    expect(reasons('x'.repeat(100_000))).to.deep.equal(['must be at most 256 characters, got 100000']);
    expect(reasons('a\u0000b')).to.deep.equal(['must not contain control characters (U+0000 at 1)']);
    expect(reasons('tab\there')).to.deep.equal(['must not contain control characters (U+0009 at 3)']);
    expect(reasons('a\uD800')).to.deep.equal(['must be valid Unicode (it holds a lone surrogate)']);
    expect(reasons('.')).to.deep.equal(['must not be "." (no URL path can address it)']);
    expect(reasons('..')).to.deep.equal(['must not be ".." (no URL path can address it)']);
    expect(decodeInput(FacilityBody, { name: '...' }, 'body').name).to.equal('...');
    expect(decodeInput(FacilityBody, { name: 'Lager 😀 Süd!' }, 'body').name).to.equal('Lager 😀 Süd!');
  });

  it('refuses names that not every proxy passes in a URL path, even encoded, and surrounding blanks; spaces inside are fine', () => {
    const reasons = (name: string) => refusal({ name }).errors.map((e) => e.reason);
    expect(reasons('Ware house/2!')).to.deep.equal(['must not contain "/" (not every proxy passes it in a URL path, even encoded), at 10']);
    expect(['a\\b', 'a?b', 'a#b', '50%'].map((n) => reasons(n).length)).to.deep.equal([1, 1, 1, 1]);
    expect(reasons(' Store')).to.deep.equal(['must not start or end with blanks']);
    expect(decodeInput(FacilityBody, { name: 'xArray Overhead' }, 'body').name).to.equal('xArray Overhead');
  });
});
