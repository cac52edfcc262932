import { expect } from 'chai';
import type * as t from 'io-ts';
import { isLeft, isRight } from 'fp-ts/Either';
import { decodeInput } from '../../src/core/http/decode';
import { ApiError } from '../../src/core/http/errors';
import { CreateOrReplaceUserBody, CreateUserBody, ShowUsersQuery } from '../../src/users/codec';

function errorsOf(codec: t.Mixed, body: unknown) {
  try {
    decodeInput(codec, body, 'body');
  } catch (err) {
    if (err instanceof ApiError) return { status: err.status, errors: err.errors };
    throw err;
  }
  return expect.fail('expected a decode failure');
}

describe('users/codec', () => {
  it('create: name, password and roles; unknown fields dropped', () => {
    const body = decodeInput(CreateUserBody, { name: 'alice', password: 'pw', roles: ['DataReader'], extra: 1 }, 'body');
    expect(body).to.deep.equal({ name: 'alice', password: 'pw', roles: ['DataReader'] });
  });

  it('create: an empty roles list is allowed', () => {
    expect(isRight(CreateUserBody.decode({ name: 'a', password: 'pw', roles: [] }))).to.equal(true);
  });

  it('create: password is required and a string (how long and how common: the password policy, after decoding)', () => {
    expect(errorsOf(CreateUserBody, { name: 'a', roles: [] }).errors).to.deep.equal([
      { path: 'body.password', reason: 'is required (Password)' },
    ]);
    expect(errorsOf(CreateUserBody, { name: 'a', password: 12, roles: [] }).errors).to.deep.equal([
      { path: 'body.password', reason: 'expected Password, got 12' },
    ]);
    expect(isLeft(CreateUserBody.decode({ name: 'a', password: null, roles: [] }))).to.equal(true);
  });

  it('names: the rule of every name (not empty, no control characters, not . or ..), at most 128 characters, no colon, no surrounding blanks', () => {
    for (const [name, reason] of [
      ['', 'must not be empty'],
      ['   ', 'must not be empty'],
      ['.', 'must not be "." (no URL path can address it)'],
      ['..', 'must not be ".." (no URL path can address it)'],
      ['a:b', "must not contain ':'"],
      ['a\nb', 'must not contain control characters (U+000A at 1)'],
      ['a\u0085b', 'must not contain control characters (U+0085 at 1)'],
      ['\ud800', 'must be valid Unicode (it holds a lone surrogate)'],
      [' a', 'must not start or end with blanks'],
      ['x'.repeat(129), 'must be at most 128 characters, got 129'],
      ['x'.repeat(100_000), 'must be at most 128 characters, got 100000'],
    ] as const) {
      expect(errorsOf(CreateUserBody, { name, password: 'pw', roles: [] }).errors, name).to.deep.equal([
        { path: 'body.name', reason },
      ]);
      expect(errorsOf(CreateOrReplaceUserBody, { name, roles: [] }).errors, name).to.deep.equal([{ path: 'body.name', reason }]);
    }
    for (const name of ['jürgen.o-k_1 x', '...', '.alice', 'x'.repeat(128)]) {
      expect(isRight(CreateUserBody.decode({ name, password: 'pw', roles: [] })), name).to.equal(true);
    }
  });

  it('roles: unknown role names are a 400 naming the element', () => {
    const { status, errors } = errorsOf(CreateUserBody, { name: 'a', password: 'pw', roles: ['Admin', 'Root'] });
    expect(status).to.equal(400);
    expect(errors).to.have.length(1);
    expect(errors[0]).to.include({ path: 'body.roles.1' });
    expect(isLeft(CreateUserBody.decode({ name: 'a', password: 'pw' }))).to.equal(true);
  });

  it('createOrReplace: the password may be absent or null, else a string (an empty one is the policy\'s to refuse)', () => {
    expect(decodeInput(CreateOrReplaceUserBody, { name: 'a', roles: ['Admin'] }, 'body')).to.deep.equal({
      name: 'a',
      roles: ['Admin'],
    });
    expect(decodeInput(CreateOrReplaceUserBody, { name: 'a', roles: [], password: null }, 'body')).to.deep.equal({
      name: 'a',
      roles: [],
      password: null,
    });
    expect(decodeInput(CreateOrReplaceUserBody, { name: 'a', roles: [], password: 'x', junk: 1 }, 'body')).to.deep.equal({
      name: 'a',
      roles: [],
      password: 'x',
    });
    expect(isLeft(CreateOrReplaceUserBody.decode({ name: 'a', roles: [], password: 5 }))).to.equal(true);
  });

  it('show query: optional role filter', () => {
    expect(isRight(ShowUsersQuery.decode({}))).to.equal(true);
    expect(isRight(ShowUsersQuery.decode({ role: 'JobRunner' }))).to.equal(true);
    expect(isLeft(ShowUsersQuery.decode({ role: 'nobody' }))).to.equal(true);
  });
});
