// Agent authentication: `Authorization: Agent <base64(readerName:secret)>`.
// The stored value is the secret's SHA-256; the digest of the presented
// secret is compared with timingSafeEqual (both 32 bytes), and an unknown
// reader is compared against a dummy digest so that timing does not tell
// which readers have a secret. A path naming another reader is a 403.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, Middleware, Next } from 'koa';
import { forbidden, unauthorized, type ApiError } from '../core/http/errors';

export const AGENT_SCHEME = 'Agent';
export const AGENT_CHALLENGE = 'Agent realm="tagtrail-agents"';

export interface AgentCredentials {
  readonly reader: string;
  readonly secret: string;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The reader and secret of an `Agent` header, or undefined. The secret is
 * base64url (no ':'), so the reader name is everything before the last ':'.
 */
export function parseAgentAuthorization(header: string | undefined): AgentCredentials | undefined {
  const match = /^([A-Za-z]+)\s+(\S+)\s*$/.exec(header?.trim() ?? '');
  if (!match || match[1]?.toLowerCase() !== 'agent') return undefined;
  const param = match[2] ?? '';
  if (!BASE64.test(param) || param.length % 4 === 1) return undefined;
  const decoded = Buffer.from(param, 'base64').toString('utf8');
  const colon = decoded.lastIndexOf(':');
  if (colon <= 0 || colon === decoded.length - 1) return undefined;
  return { reader: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** The header value an agent sends. */
export const agentAuthorization = (reader: string, secret: string): string =>
  `${AGENT_SCHEME} ${Buffer.from(`${reader}:${secret}`, 'utf8').toString('base64')}`;

export { sha256Hex } from '../core/digest';

/** A fresh secret: 32 random bytes, base64url (43 characters). */
export const newAgentSecret = (): string => randomBytes(32).toString('base64url');

const DUMMY = createHash('sha256').update('no secret issued').digest();

/** Constant-time check of `secret` against the stored SHA-256 hex (undefined: none issued). */
export function secretMatches(secret: string, storedSha256Hex: string | undefined): boolean {
  const presented = createHash('sha256').update(secret, 'utf8').digest();
  const stored = storedSha256Hex !== undefined && /^[0-9a-f]{64}$/.test(storedSha256Hex) ? Buffer.from(storedSha256Hex, 'hex') : undefined;
  const equal = timingSafeEqual(presented, stored ?? DUMMY);
  return equal && stored !== undefined;
}

/** Where the guard looks up the stored digest of a reader's secret. */
export type SecretLookup = (reader: string) => Promise<string | undefined>;

const STATE_KEY = 'agentReader';

function challenge(ctx: Context, message: string): ApiError {
  ctx.set('WWW-Authenticate', AGENT_CHALLENGE);
  return Object.assign(unauthorized(message), { headers: { 'WWW-Authenticate': AGENT_CHALLENGE } });
}

/**
 * Route guard of agent routes: 401 without a valid Agent header, 403 when
 * the path's `:readerName` is not the authenticated reader.
 */
export function agentGuard(lookup: SecretLookup, param = 'readerName'): Middleware {
  return async function requireAgent(ctx: Context, next: Next): Promise<void> {
    const credentials = parseAgentAuthorization(ctx.get('Authorization') || undefined);
    if (!credentials) throw challenge(ctx, 'Agent credentials required (Authorization: Agent base64(readerName:secret))');
    const stored = await lookup(credentials.reader);
    if (!secretMatches(credentials.secret, stored)) throw challenge(ctx, 'Invalid agent credentials');
    const named = (ctx.params as Record<string, string | undefined> | undefined)?.[param];
    if (named !== undefined && named !== credentials.reader) {
      throw forbidden(`The agent of reader ${JSON.stringify(credentials.reader)} cannot act for reader ${JSON.stringify(named)}`);
    }
    ctx.state[STATE_KEY] = credentials.reader;
    await next();
  };
}

/** The reader the agent guard authenticated. */
export function agentReaderOf(ctx: Context): string {
  const reader = ctx.state[STATE_KEY] as string | undefined;
  if (reader === undefined) throw new Error('agentGuard is not mounted before this route');
  return reader;
}
