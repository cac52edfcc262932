// Tokens of one user live in one stream, `tokens-<username>`: revoking all of
// a user's tokens is then one event on one stream, and listing them is one
// fold. Tokens have no expiry (docs/interface.md); they are valid until revoked.
// `lastUsed` is not an event: it changes on every request, so it lives in a
// read model written by PrincipalStore.touchToken.
//
// Events carry the token's SHA-256 (`tokenSha256`), never the token. Events
// written before tokens were stored hashed carry the token itself (`token`);
// their codecs still read them, hashing the token on the way in, so such
// tokens keep working and can be listed and revoked; new events never have
// that field.
import * as t from 'io-ts';
import { isRight } from 'fp-ts/Either';
import { defineEvents, type EventOf } from '../core/events';
import { TokenId, tokenSha256 } from '../auth';

/** A Date stored as its ISO 8601 string. */
export const DateFromISOString = new t.Type<Date, string, unknown>(
  'DateFromISOString',
  (u): u is Date => u instanceof Date,
  (u, c) => {
    if (typeof u !== 'string') return t.failure(u, c);
    const d = new Date(u);
    return Number.isNaN(d.getTime()) ? t.failure(u, c, 'is not an ISO 8601 timestamp') : t.success(d);
  },
  (d) => d.toISOString(),
);

const Sha256Hex = new t.Type<string, string, unknown>(
  'Sha256Hex',
  (u): u is string => typeof u === 'string' && /^[0-9a-f]{64}$/.test(u),
  (u, c) => (typeof u === 'string' && /^[0-9a-f]{64}$/.test(u) ? t.success(u) : t.failure(u, c, 'is not a SHA-256 digest (64 lower-case hex digits)')),
  t.identity,
);

/**
 * Event data with the token's digest, reading the older form with the token
 * itself (`token`) as its digest too. Always writes the digest form.
 */
function withTokenDigest<P extends t.Props>(name: string, props: P) {
  const current = t.type({ tokenSha256: Sha256Hex, ...props });
  const legacy = t.type({ token: TokenId, ...props });
  type Data = t.TypeOf<typeof current>;
  return new t.Type<Data, t.OutputOf<typeof current>, unknown>(
    name,
    current.is,
    (u, c) => {
      const now = current.validate(u, c);
      if (isRight(now)) return now;
      const old = legacy.validate(u, c);
      if (!isRight(old)) return now; // report the current form's errors
      const { token, ...rest } = old.right;
      return t.success({ ...rest, tokenSha256: tokenSha256(token) } as Data);
    },
    current.encode,
  );
}

export const tokenEvents = defineEvents({
  TokenIssued: withTokenDigest('TokenIssued', { username: t.string, issued: DateFromISOString }),
  TokenRevoked: withTokenDigest('TokenRevoked', {}),
  AllTokensRevoked: t.type({ username: t.string }),
});
export type TokenEvent = EventOf<typeof tokenEvents>;

export const tokensStream = (username: string): string => `tokens-${username}`;

export interface TokenRecord {
  readonly tokenSha256: string;
  readonly issued: Date;
  readonly valid: boolean;
}

/** The user's tokens in the order they were issued, revoked ones included. */
export interface TokensState {
  readonly tokens: readonly TokenRecord[];
}

export const initialTokensState: TokensState = { tokens: [] };

export function evolveTokens(state: TokensState, event: TokenEvent): TokensState {
  switch (event.type) {
    case 'TokenIssued':
      return { tokens: [...state.tokens, { tokenSha256: event.data.tokenSha256, issued: event.data.issued, valid: true }] };
    case 'TokenRevoked':
      return {
        tokens: state.tokens.map((r) => (r.tokenSha256 === event.data.tokenSha256 ? { ...r, valid: false } : r)),
      };
    case 'AllTokensRevoked':
      return { tokens: state.tokens.map((r) => (r.valid ? { ...r, valid: false } : r)) };
    default:
      return assertNever(event);
  }
}

export function assertNever(x: never): never {
  throw new Error(`unexpected ${JSON.stringify(x)}`);
}
