// Credentials -> principal, independent of Koa so that validateToken and the
// AMQP login (basic credentials only) can share it.
import { randomBytes } from 'node:crypto';
import { hashPassword, verifyPassword, type PasswordVerifier } from './password';
import type { Credentials } from './header';
import type { Principal } from './roles';
import type { PrincipalStore, StoredUser } from './store';
import type { LoginOrigin, LoginThrottle } from './throttle';

/** How the caller proved who it is; `GET /authentication/v1/token` insists on basic. */
export type AuthScheme = 'basic' | 'token';

export interface AuthenticatedPrincipal extends Principal {
  readonly scheme: AuthScheme;
}

export type Resolution =
  | { readonly ok: true; readonly principal: AuthenticatedPrincipal }
  /** `retryAfterMs`: refused unchecked, the login throttle holds this user or address back. */
  | { readonly ok: false; readonly message: string; readonly retryAfterMs?: number };

/** The login throttle and where the attempt comes from; absent: not throttled. */
export interface ThrottledOrigin {
  readonly throttle: LoginThrottle;
  readonly origin: LoginOrigin;
}

const INVALID = 'Invalid credentials';

// A hash of a password nobody knows. An unknown user name is checked against
// it so that "no such user" takes as long as "wrong password" and response
// times do not reveal which user names exist.
let decoyHash: Promise<string> | undefined;
function decoy(): Promise<string> {
  decoyHash ??= hashPassword(randomBytes(32).toString('base64'));
  return decoyHash;
}

function principalOf(user: StoredUser, scheme: AuthScheme): AuthenticatedPrincipal {
  return { name: user.name, roles: user.roles, scheme };
}

/**
 * Checks a user name and password; with `throttled`, not at all while the
 * login throttle holds the name or address back, and a failure counts.
 */
export async function resolveBasic(
  store: PrincipalStore,
  verifier: PasswordVerifier,
  username: string,
  password: string,
  throttled?: ThrottledOrigin,
): Promise<Resolution> {
  if (!throttled) return checkPassword(store, verifier, username, password);
  let resolution: Resolution | undefined;
  const outcome = await throttled.throttle.attempt(username, throttled.origin, async () => {
    resolution = await checkPassword(store, verifier, username, password);
    return resolution.ok;
  });
  if ('heldBackMs' in outcome) return { ok: false, message: 'Too many failed logins; retry later', retryAfterMs: outcome.heldBackMs };
  return resolution ?? { ok: false, message: INVALID };
}

async function checkPassword(store: PrincipalStore, verifier: PasswordVerifier, username: string, password: string): Promise<Resolution> {
  const user = await store.findUser(username);
  if (!user) {
    // The verifier (and its cache) is bypassed: nothing about a non-user is remembered.
    await verifyPassword(await decoy(), password);
    return { ok: false, message: INVALID };
  }
  const ok = await verifier.verify(user.name, password, user.passwordHash);
  return ok ? { ok: true, principal: principalOf(user, 'basic') } : { ok: false, message: INVALID };
}

/**
 * The user a token stands for, or undefined when the token is unknown,
 * revoked, or its user no longer exists. Does not record the use.
 */
export async function userOfToken(store: PrincipalStore, token: string): Promise<StoredUser | undefined> {
  const stored = await store.findToken(token);
  if (!stored || !stored.valid) return undefined;
  return store.findUser(stored.username);
}

/** Resolves parsed credentials; a valid token's use is recorded with `now`. */
export async function resolveCredentials(
  store: PrincipalStore,
  verifier: PasswordVerifier,
  credentials: Credentials,
  now: Date,
  onTouchError: (err: unknown) => void,
  throttled?: ThrottledOrigin,
): Promise<Resolution> {
  switch (credentials.kind) {
    case 'none':
      return { ok: false, message: 'Authentication required' };
    case 'invalid':
      return { ok: false, message: `${INVALID}: ${credentials.reason}` };
    case 'basic':
      return resolveBasic(store, verifier, credentials.username, credentials.password, throttled);
    case 'token': {
      const user = await userOfToken(store, credentials.token);
      if (!user) return { ok: false, message: 'Invalid or revoked token' };
      try {
        await store.touchToken(credentials.token, now);
      } catch (err) {
        onTouchError(err);
      }
      return { ok: true, principal: principalOf(user, 'token') };
    }
    default:
      return assertNever(credentials);
  }
}

function assertNever(x: never): never {
  throw new Error(`unexpected credentials ${JSON.stringify(x)}`);
}
