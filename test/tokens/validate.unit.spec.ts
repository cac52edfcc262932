import { expect } from 'chai';
import { isLeft } from 'fp-ts/Either';
import { decodeInput } from '../../src/core/http/decode';
import { RevokeTokenBody } from '../../src/tokens/codec';
import { tokenToValidate, validateToken, validateTokenErrorToApi } from '../../src/tokens/validate';
import { MemoryPrincipalStore } from '../auth/memory-store';

const T1 = 'bbbbbbbb-0000-4000-8000-000000000001';
const T2 = 'bbbbbbbb-0000-4000-8000-000000000002';
const T3 = 'bbbbbbbb-0000-4000-8000-000000000003';
const T4 = 'bbbbbbbb-0000-4000-8000-000000000004';
const issued = new Date(0);

describe('tokens/validate', () => {
  const store = new MemoryPrincipalStore()
    .addUser({ name: 'alice', roles: ['JobRunner'], passwordHash: 'h' })
    .addToken(T1, { username: 'alice', issued, valid: true })
    .addToken(T2, { username: 'alice', issued, valid: false })
    .addToken(T3, { username: 'gone', issued, valid: true });

  const statusOf = (path: string | undefined, body: unknown): number | string => {
    const r = tokenToValidate(path, body);
    return isLeft(r) ? validateTokenErrorToApi(r.left).status : r.right;
  };

  it('takes the token from the body, or from the path when given there', () => {
    expect(statusOf(undefined, { token: T1 })).to.equal(T1);
    expect(statusOf(T1, {})).to.equal(T1);
    expect(statusOf(T1, { token: T2 })).to.equal(T1);
    expect(statusOf(` ${T1.toUpperCase()} `, undefined)).to.equal(T1);
  });

  it('422 when no token is given', () => {
    for (const body of [undefined, null, {}, { token: null }, { token: '' }, { token: '  ' }, [], 'x']) {
      expect(statusOf(undefined, body), JSON.stringify(body)).to.equal(422);
    }
    expect(statusOf('', {})).to.equal(422);
  });

  it('400 when the token is not a string; 401 when it is not a UUID', () => {
    expect(statusOf(undefined, { token: 42 })).to.equal(400);
    expect(statusOf(undefined, { token: 'abc' })).to.equal(401);
    expect(statusOf('abc', {})).to.equal(401);
  });

  it('answers the user (name, roles) of a valid token without recording a use', async () => {
    store.touches.length = 0;
    expect(await validateToken(store, T1)).to.deep.equal({ _tag: 'Right', right: { name: 'alice', roles: ['JobRunner'] } });
    expect(store.touches).to.deep.equal([]);
  });

  it('401 for unknown, revoked, and orphaned tokens', async () => {
    for (const token of [T2, T3, T4]) {
      const r = await validateToken(store, token);
      expect(isLeft(r) && validateTokenErrorToApi(r.left).status, token).to.equal(401);
    }
  });

  it('revokeToken body: a UUID token, lower-cased', () => {
    expect(decodeInput(RevokeTokenBody, { token: T1.toUpperCase(), x: 1 }, 'body')).to.deep.equal({ token: T1 });
    expect(() => decodeInput(RevokeTokenBody, { token: 'x' }, 'body')).to.throw('Invalid request body');
    expect(() => decodeInput(RevokeTokenBody, {}, 'body')).to.throw('Invalid request body');
  });
});
