// Users and tokens in Redis, for authentication on every request (written
// by the users and tokens parts of the config projection, projections/config/auth.ts).
//   <base>v1:config:user      name  -> {name, roles, passwordHash}
//   <base>v1:tokens           token id -> {id, username, issued, valid, seq}
//   <base>v1:tokens:revoked   token id -> commit position of its TokenRevoked
//   <base>v1:tokens-revoked   username -> commit position of the last AllTokensRevoked
// "Revoke all tokens of a user" is recorded as a position instead of by
// rewriting every token, so the projection only ever writes (no read inside
// its transaction); a token issued before that position is invalid.
// Tokens are keyed by their id (tokenIdOfDigest of the event's digest), so no
// token is ever written to Redis; see projections/config/token-migration.ts for read models
// written before that.

export const USER_KIND = 'user';
export const tokensKey = (base: string): string => `${base}v1:tokens`;
export const tokensRevokedKey = (base: string): string => `${base}v1:tokens-revoked`;
export const tokensRevokedIdsKey = (base: string): string => `${tokensKey(base)}:revoked`;
