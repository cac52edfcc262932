// Koa side of authentication. `authenticate` runs once per request and
// records who is calling (or why nobody is); `requireRoles` guards a route.
// Credentials are checked eagerly but refused lazily, so a route decides
// whether it needs a caller at all.
import type { Context, Middleware, Next } from 'koa';
import type { Logger } from '../core/logger';
import { forbidden, tooManyRequests, unauthorized, type ApiError } from '../core/http/errors';
import { parseAuthorization } from './header';
import { PasswordVerifier } from './password';
import { resolveCredentials, type AuthenticatedPrincipal, type Resolution } from './resolve';
import { hasAnyRole, type Role } from './roles';
import type { PrincipalStore } from './store';
import type { LoginThrottle } from './throttle';

export type { PrincipalStore, StoredToken, StoredUser } from './store';
export type { AuthenticatedPrincipal, AuthScheme } from './resolve';

/** Sent with every 401 so that clients (and curl/browsers) know to send Basic credentials. */
export const WWW_AUTHENTICATE = 'Basic realm="tagtrail"';

const STATE_KEY = 'auth';

export interface AuthenticateOptions {
  /** Shared so the password cache spans all requests; one is created if absent. */
  readonly verifier?: PasswordVerifier;
  readonly clock?: () => Date;
  readonly logger?: Logger;
  /** Failed-login throttling of Basic credentials, by user name and client address; absent: none. */
  readonly throttle?: LoginThrottle;
}

/** Resolves the caller into `ctx.state.principal` (undefined when none or invalid). */
export function authenticate(store: PrincipalStore, opts: AuthenticateOptions = {}): Middleware {
  const verifier = opts.verifier ?? new PasswordVerifier();
  const clock = opts.clock ?? (() => new Date());
  const logger = opts.logger;
  const onTouchError = (err: unknown): void => logger?.warn('recording token use failed', { err });
  return async function authenticateRequest(ctx: Context, next: Next): Promise<void> {
    // Mounted on several routers, it would otherwise run once per router a
    // request passes through (@koa/router runs a router's use() middleware
    // for paths routed further on), verifying and recording token use twice.
    if (ctx.state[STATE_KEY] !== undefined) return next();
    const credentials = parseAuthorization(ctx.get('Authorization') || undefined);
    const throttled = opts.throttle ? { throttle: opts.throttle, origin: { address: ctx.ip } } : undefined;
    const resolution = await resolveCredentials(store, verifier, credentials, clock(), onTouchError, throttled);
    ctx.state[STATE_KEY] = resolution;
    ctx.state['principal'] = resolution.ok ? resolution.principal : undefined;
    // Never the header or the password: only which scheme failed and why.
    if (!resolution.ok && credentials.kind !== 'none') {
      logger?.debug('authentication failed', { scheme: credentials.kind, reason: resolution.message });
    }
    await next();
  };
}

/**
 * A 401 carrying the Basic challenge. The header is set on the context (our
 * error middleware keeps it) and on the error (Koa's default handler sends
 * `err.headers`), so it survives either.
 */
function challenge(ctx: Context, message: string): ApiError {
  ctx.set('WWW-Authenticate', WWW_AUTHENTICATE);
  return Object.assign(unauthorized(message), { headers: { 'WWW-Authenticate': WWW_AUTHENTICATE } });
}

/** Seconds for a Retry-After header: whole, at least 1. */
export const retryAfterSeconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/** A 429 with Retry-After: the login throttle holds this user name or address back. */
function holdBack(ctx: Context, message: string, retryAfterMs: number): ApiError {
  const seconds = String(retryAfterSeconds(retryAfterMs));
  ctx.set('Retry-After', seconds);
  return Object.assign(tooManyRequests(message), { headers: { 'Retry-After': seconds } });
}

/**
 * The authenticated caller, or a thrown 401 (429 while the login throttle
 * holds the caller back). Throws a plain Error (a 500)
 * when `authenticate` is not mounted: a wiring mistake must fail closed, not
 * look like an anonymous request.
 */
export function currentPrincipal(ctx: Context): AuthenticatedPrincipal {
  const resolution = ctx.state[STATE_KEY] as Resolution | undefined;
  if (resolution === undefined) throw new Error('authenticate() middleware is not mounted before this route');
  if (!resolution.ok) {
    if (resolution.retryAfterMs !== undefined) throw holdBack(ctx, resolution.message, resolution.retryAfterMs);
    throw challenge(ctx, resolution.message);
  }
  return resolution.principal;
}

/**
 * Route guard: 401 (with WWW-Authenticate) without valid credentials, 403
 * when the caller holds none of `roles`. Admin passes every guard; no roles
 * at all means any authenticated caller.
 */
export function requireRoles(...roles: Role[]): Middleware {
  return async function requireRole(ctx: Context, next: Next): Promise<void> {
    const principal = currentPrincipal(ctx);
    if (!hasAnyRole(principal, roles)) {
      throw forbidden(`User ${principal.name} lacks the required role (one of: ${[...new Set<Role>(['Admin', ...roles])].join(', ')})`);
    }
    await next();
  };
}

/**
 * Route guard for endpoints that must not be reachable with a token, such as
 * getting a token for oneself (spec: "Getting a token requires basic
 * credentials"); otherwise a leaked token could mint fresh ones. 401 so the
 * client is asked for Basic credentials.
 */
export function requireBasicAuth(): Middleware {
  return async function requireBasic(ctx: Context, next: Next): Promise<void> {
    const principal = currentPrincipal(ctx);
    if (principal.scheme !== 'basic') throw challenge(ctx, 'This endpoint requires basic credentials');
    await next();
  };
}
