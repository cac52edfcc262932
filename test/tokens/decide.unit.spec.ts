import { expect } from 'chai';
import { isLeft, isRight } from 'fp-ts/Either';
import { decideOnHistory } from '../../src/core/command';
import { tokensDecider, tokenErrorToApi, type TokenCommand } from '../../src/tokens/decide';
import { tokenEvents, tokensStream, type TokenEvent } from '../../src/tokens/events';
import { toTokenListing, toTokenResponse } from '../../src/tokens/listing';
import { isTokenId, newTokenId, tokenIdOf, tokenIdOfDigest, tokenSha256 } from '../../src/auth/token-id';
import type { Principal } from '../../src/auth/roles';

const now = new Date('2024-02-03T04:05:06Z');
const earlier = new Date('2024-01-01T00:00:00Z');
const T1 = 'aaaaaaaa-0000-4000-8000-000000000001';
const T2 = 'aaaaaaaa-0000-4000-8000-000000000002';
const T3 = 'aaaaaaaa-0000-4000-8000-000000000003';

const given = (...history: TokenEvent[]) => ({
  when: (command: TokenCommand) => decideOnHistory(tokensDecider, history, command, now),
});
const issued = (token: string, username = 'alice', at = earlier): TokenEvent => ({
  type: 'TokenIssued',
  data: { tokenSha256: tokenSha256(token), username, issued: at },
});
const revoked = (token: string): TokenEvent => ({ type: 'TokenRevoked', data: { tokenSha256: tokenSha256(token) } });

const alice: Principal = { name: 'alice', roles: ['ConfigManager'] };
const admin: Principal = { name: 'root', roles: ['Admin'] };
const issue = (issuer: Principal, username = 'alice', userExists = true): TokenCommand => ({
  type: 'IssueToken',
  tokenSha256: tokenSha256(T3),
  username,
  issuer,
  userExists,
});

function events(result: ReturnType<ReturnType<typeof given>['when']>) {
  if (!isRight(result)) return expect.fail(`expected events, got ${JSON.stringify(result.left)}`);
  return result.right.events;
}
function error(result: ReturnType<ReturnType<typeof given>['when']>) {
  if (!isLeft(result)) return expect.fail(`expected an error, got ${JSON.stringify(result.right.events)}`);
  return result.left;
}

describe('tokens/decide', () => {
  it('one stream per user: tokens-<username>; ids are random UUIDs', () => {
    expect(tokensStream('alice')).to.equal('tokens-alice');
    const id = newTokenId();
    expect(id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newTokenId()).to.not.equal(id);
  });

  describe('IssueToken', () => {
    it('a user gets a token for itself, issued now', () => {
      expect(events(given().when(issue(alice)))).to.deep.equal([
        { type: 'TokenIssued', data: { tokenSha256: tokenSha256(T3), username: 'alice', issued: now } },
      ]);
    });

    it('an Admin gets a token for another user', () => {
      expect(events(given(issued(T1)).when(issue(admin)))).to.have.length(1);
    });

    it('a non-admin asking for another user is refused with 403, before existence is revealed', () => {
      for (const exists of [true, false]) {
        const err = error(given().when(issue(alice, 'bob', exists)));
        expect(err).to.deep.equal({ code: 'NotAllowed', issuer: 'alice', username: 'bob' });
        expect(tokenErrorToApi(err).status).to.equal(403);
      }
    });

    it('a token for a user that does not exist is refused with 404', () => {
      const err = error(given().when(issue(admin, 'ghost', false)));
      expect(tokenErrorToApi(err).status).to.equal(404);
    });

    it('a token id already issued is refused with 409', () => {
      expect(tokenErrorToApi(error(given(issued(T3)).when(issue(alice)))).status).to.equal(409);
    });
  });

  describe('RevokeToken', () => {
    it('revokes a valid token', () => {
      const result = given(issued(T1), issued(T2)).when({ type: 'RevokeToken', username: 'alice', tokenId: tokenIdOf(T1) });
      expect(events(result)).to.deep.equal([{ type: 'TokenRevoked', data: { tokenSha256: tokenSha256(T1) } }]);
      expect(isRight(result) && result.right.state.tokens.map((r) => r.valid)).to.deep.equal([false, true]);
    });

    it('revoking a revoked token writes nothing', () => {
      expect(events(given(issued(T1), revoked(T1)).when({ type: 'RevokeToken', username: 'alice', tokenId: tokenIdOf(T1) }))).to.deep.equal([]);
    });

    it('an unknown token is 404', () => {
      const err = error(given(issued(T1)).when({ type: 'RevokeToken', username: 'alice', tokenId: tokenIdOf(T2) }));
      expect(err).to.deep.equal({ code: 'TokenNotFound' });
      expect(tokenErrorToApi(err).status).to.equal(404);
    });
  });

  describe('RevokeAllTokens', () => {
    it('revokes every valid token of the user in one event', () => {
      const result = given(issued(T1), issued(T2), revoked(T1)).when({ type: 'RevokeAllTokens', username: 'alice', userExists: true });
      expect(events(result)).to.deep.equal([{ type: 'AllTokensRevoked', data: { username: 'alice' } }]);
      expect(isRight(result) && result.right.state.tokens.every((r) => !r.valid)).to.equal(true);
    });

    it('with nothing valid left, writes nothing', () => {
      expect(events(given().when({ type: 'RevokeAllTokens', username: 'alice', userExists: true }))).to.deep.equal([]);
      expect(events(given(issued(T1), revoked(T1)).when({ type: 'RevokeAllTokens', username: 'alice', userExists: true }))).to.deep.equal([]);
    });

    it('a user that does not exist and never had tokens is 404', () => {
      const err = error(given().when({ type: 'RevokeAllTokens', username: 'ghost', userExists: false }));
      expect(tokenErrorToApi(err).status).to.equal(404);
    });

    it('a deleted user whose tokens are still valid can still have them revoked', () => {
      expect(events(given(issued(T1)).when({ type: 'RevokeAllTokens', username: 'alice', userExists: false }))).to.have.length(1);
    });

    it('tokens issued after a revoke-all are valid', () => {
      const result = given(issued(T1), { type: 'AllTokensRevoked', data: { username: 'alice' } }).when(issue(alice));
      expect(isRight(result) && result.right.state.tokens.map((r) => [r.tokenSha256, r.valid])).to.deep.equal([
        [tokenSha256(T1), false],
        [tokenSha256(T3), true],
      ]);
    });
  });

  describe('responses and codecs', () => {
    it('lists tokens as clients read them, lastUsed null when never used', () => {
      const state = [issued(T1, 'alice', earlier), revoked(T1), issued(T2, 'alice', now)].reduce(
        tokensDecider.evolve,
        tokensDecider.initialState,
      );
      expect(toTokenListing('alice', state, new Map([[tokenIdOf(T2), now]]))).to.deep.equal([
        { authenticationToken: { token: tokenIdOf(T1) }, issued: earlier.toISOString(), lastUsed: null, username: 'alice', valid: false },
        { authenticationToken: { token: tokenIdOf(T2) }, issued: now.toISOString(), lastUsed: now.toISOString(), username: 'alice', valid: true },
      ]);
      expect(toTokenResponse(T1)).to.deep.equal({ token: T1 });
    });

    it('TokenIssued stores the token digest and issued as ISO 8601, and reads them back', () => {
      const data = { tokenSha256: tokenSha256(T1), username: 'alice', issued: now };
      const encoded = tokenEvents.TokenIssued.encode(data);
      expect(encoded).to.deep.equal({ tokenSha256: tokenSha256(T1), username: 'alice', issued: '2024-02-03T04:05:06.000Z' });
      expect(JSON.stringify(encoded)).to.not.include(T1);
      expect(tokenEvents.TokenIssued.decode(encoded)).to.deep.equal({ _tag: 'Right', right: data });
      expect(isLeft(tokenEvents.TokenIssued.decode({ ...encoded, issued: 'yesterday' }))).to.equal(true);
      expect(isLeft(tokenEvents.TokenRevoked.decode({ tokenSha256: 'nope' }))).to.equal(true);
      expect(isLeft(tokenEvents.TokenRevoked.decode({ token: 'nope' }))).to.equal(true);
    });

    it('events of the older form, with the token itself, read as its digest (upper-case tokens too)', () => {
      const old = { token: T1.toUpperCase(), username: 'alice', issued: '2024-02-03T04:05:06.000Z' };
      expect(tokenEvents.TokenIssued.decode(old)).to.deep.equal({
        _tag: 'Right',
        right: { tokenSha256: tokenSha256(T1), username: 'alice', issued: now },
      });
      expect(tokenEvents.TokenRevoked.decode({ token: T1 })).to.deep.equal({ _tag: 'Right', right: { tokenSha256: tokenSha256(T1) } });
      // An old history folds and decides like a new one: revoke by id, list by id.
      const history = [old, { token: T1 }].map((d, i) =>
        i === 0
          ? ({ type: 'TokenIssued', data: (tokenEvents.TokenIssued.decode(d) as { right: TokenEvent['data'] }).right } as TokenEvent)
          : ({ type: 'TokenRevoked', data: (tokenEvents.TokenRevoked.decode(d) as { right: TokenEvent['data'] }).right } as TokenEvent),
      );
      const state = history.reduce(tokensDecider.evolve, tokensDecider.initialState);
      expect(state.tokens).to.deep.equal([{ tokenSha256: tokenSha256(T1), issued: now, valid: false }]);
    });

    it('a token id is a version-8 UUID of the digest, told apart from issued (version-4) tokens', () => {
      const id = tokenIdOf(T1);
      expect(id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(id).to.equal(tokenIdOfDigest(tokenSha256(T1)));
      expect(tokenIdOf(T1.toUpperCase())).to.equal(id);
      expect(id).to.not.equal(tokenIdOf(T2));
      expect(isTokenId(id)).to.equal(true);
      expect(isTokenId(newTokenId())).to.equal(false);
    });
  });
});
