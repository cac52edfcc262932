// Response shapes of the token endpoints, as existing clients read them
// (docs/interface.md: `{token}` when issued; listing entries
// `{authenticationToken: {token}, issued, lastUsed, username, valid}`).
// Only digests of tokens are stored, so a listing cannot show a token: its
// `authenticationToken.token` is the token's id (tokenIdOfDigest), a UUID
// that revokeToken accepts in place of the token.
import type { TokensState } from './events';
import { tokenIdOfDigest } from '../auth';

export interface TokenResponse {
  readonly token: string;
}

export interface TokenListEntry {
  readonly authenticationToken: { readonly token: string };
  /** ISO 8601. */
  readonly issued: string;
  /** ISO 8601; null for a token never used (nothing to report, and no invented time). */
  readonly lastUsed: string | null;
  readonly username: string;
  readonly valid: boolean;
}

export const toTokenResponse = (token: string): TokenResponse => ({ token });

/**
 * `GET /authentication/v1/listTokens/{username}`: every token of the user,
 * revoked ones included (marked valid=false), oldest first, each under its
 * id. `lastUsed` (by token id) comes from the read model that
 * PrincipalStore.touchToken writes.
 */
export function toTokenListing(
  username: string,
  state: TokensState,
  lastUsed: ReadonlyMap<string, Date>,
): TokenListEntry[] {
  return state.tokens.map((record) => {
    const id = tokenIdOfDigest(record.tokenSha256);
    return {
      authenticationToken: { token: id },
      issued: record.issued.toISOString(),
      lastUsed: lastUsed.get(id)?.toISOString() ?? null,
      username,
      valid: record.valid,
    };
  });
}
