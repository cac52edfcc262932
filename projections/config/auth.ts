// The users and tokens parts of the config projection: what authentication
// reads on every request (key layout in src/auth/keys.ts).
import type { ConfigProjectionPart } from './part';
import { userEvents } from '../../src/users';
import { tokenEvents } from '../../src/tokens';
import { tokenIdOfDigest, USER_KIND, tokensKey, tokensRevokedIdsKey, tokensRevokedKey } from '../../src/auth';


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
