// Users and tokens in Redis, for authentication on every request.
//   <base>v1:config:user      name  -> {name, roles, passwordHash}
//   <base>v1:tokens           token id -> {id, username, issued, valid, seq}
//   <base>v1:tokens:revoked   token id -> commit position of its TokenRevoked
//   <base>v1:tokens-revoked   username -> commit position of the last AllTokensRevoked
// "Revoke all tokens of a user" is recorded as a position instead of by
// rewriting every token, so the projection only ever writes (no read inside
// its transaction); a token issued before that position is invalid.
// Tokens are keyed by their id (tokenIdOfDigest of the event's digest), so no
// token is ever written to Redis; see token-migration.ts for read models
// written before that.
import type { ConfigProjectionPart } from '../config/projection';
import { userEvents } from '../../src/users/events';
import { tokenEvents } from '../../src/tokens/events';
import { tokenIdOfDigest } from '../../src/tokens/tokenId';

export const USER_KIND = 'user';
export const tokensKey = (base: string): string => `${base}v1:tokens`;
export const tokensRevokedKey = (base: string): string => `${base}v1:tokens-revoked`;
export const tokensRevokedIdsKey = (base: string): string => `${tokensKey(base)}:revoked`;

export const usersPart: ConfigProjectionPart = {
  streamPrefix: 'user-',
  codecs: userEvents,
  apply(tx, event, keys) {
    const data = event.data as { name: string; roles?: string[]; passwordHash?: string };
    if (event.type === 'UserDeleted') tx.hDel(keys.config(USER_KIND), data.name);
    else tx.hSet(keys.config(USER_KIND), data.name, JSON.stringify({ name: data.name, roles: data.roles, passwordHash: data.passwordHash }));
  },
};

export const tokensPart: ConfigProjectionPart = {
  streamPrefix: 'tokens-',
  codecs: tokenEvents,
  apply(tx, event, keys) {
    const seq = event.position?.commit.toString() ?? '0';
    switch (event.type) {
      case 'TokenIssued': {
        const d = event.data as { tokenSha256: string; username: string; issued: Date };
        const id = tokenIdOfDigest(d.tokenSha256);
        tx.hSet(tokensKey(keys.base), id, JSON.stringify({ id, username: d.username, issued: d.issued.toISOString(), valid: true, seq }));
        return;
      }
      case 'TokenRevoked': {
        // Revoked tokens stay listed (valid: false); the record is rewritten
        // from the stream's own state by the reader, so only the flag changes.
        const d = event.data as { tokenSha256: string };
        tx.hSet(tokensRevokedIdsKey(keys.base), tokenIdOfDigest(d.tokenSha256), seq);
        return;
      }
      case 'AllTokensRevoked': {
        const d = event.data as { username: string };
        tx.hSet(tokensRevokedKey(keys.base), d.username, seq);
        return;
      }
      default:
        return;
    }
  },
};
