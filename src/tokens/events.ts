// Tokens of one user live in one stream, `tokens-<username>`: revoking all of
// a user's tokens is then one event on one stream, and listing them is one
// fold. Tokens have no expiry (docs/interface.md); they are valid until revoked.
// `lastUsed` is not an event: it changes on every request, so it lives in a
// read model written by PrincipalStore.touchToken.
import * as t from 'io-ts';
import { defineEvents, type EventOf } from '../core/events';
import { TokenId } from './tokenId';

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

export const tokenEvents = defineEvents({
  TokenIssued: t.type({ token: TokenId, username: t.string, issued: DateFromISOString }),
  TokenRevoked: t.type({ token: TokenId }),
  AllTokensRevoked: t.type({ username: t.string }),
});
export type TokenEvent = EventOf<typeof tokenEvents>;

export const tokensStream = (username: string): string => `tokens-${username}`;

export interface TokenRecord {
  readonly token: string;
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
      return { tokens: [...state.tokens, { token: event.data.token, issued: event.data.issued, valid: true }] };
    case 'TokenRevoked':
      return {
        tokens: state.tokens.map((r) => (r.token === event.data.token ? { ...r, valid: false } : r)),
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
