// Response shapes of the token endpoints, as existing clients read them
// (docs/interface.md: `{token}` when issued; listing entries
// `{authenticationToken: {token}, issued, lastUsed, username, valid}`).
import type { TokensState } from './events';

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
 * revoked ones included (marked valid=false), oldest first. `lastUsed` comes
 * from the read model that PrincipalStore.touchToken writes.
 */
export function toTokenListing(
  username: string,
  state: TokensState,
  lastUsed: ReadonlyMap<string, Date>,
): TokenListEntry[] {
  return state.tokens.map((record) => ({
    authenticationToken: { token: record.token },
    issued: record.issued.toISOString(),
    lastUsed: lastUsed.get(record.token)?.toISOString() ?? null,
    username,
    valid: record.valid,
  }));
}
