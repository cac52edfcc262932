// What src/auth offers to other slices and to projections; everything else in
// this folder is its own (docs/architecture.md, "Boundaries").
export { WWW_AUTHENTICATE, currentPrincipal, requireBasicAuth, retryAfterSeconds } from './middleware';
export { hashPassword, verifyPassword, type PasswordVerifier } from './password';
export { RedisPrincipalStore } from './redis-store';
export { resolveBasic, userOfToken } from './resolve';
export { ALL_ROLES, Role, hasAnyRole, normaliseRoles, type Principal } from './roles';
export { type PrincipalStore, type StoredUser } from './store';
export { type LoginThrottle } from './throttle';
export { USER_KIND, tokensKey, tokensRevokedIdsKey, tokensRevokedKey } from './keys';
export { TokenId, isTokenId, newTokenId, normaliseTokenId, tokenIdOf, tokenIdOfDigest, tokenSha256 } from './token-id';
