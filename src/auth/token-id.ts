// Authentication tokens are random UUIDs (version 4, 122 random bits): long
// enough that guessing one is hopeless, and the format clients expect.
import { randomUUID } from 'node:crypto';
import * as t from 'io-ts';
import { sha256Hex } from '../core/digest';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function newTokenId(): string {
  return randomUUID();
}

/**
 * The canonical (lower-case) form of a token a client sent, or undefined when
 * it is not a UUID at all. Tokens are issued lower-case; a client that
 * upper-cases one still means the same token.
 */
export function normaliseTokenId(value: string): string | undefined {
  const trimmed = value.trim();
  return UUID.test(trimmed) ? trimmed.toLowerCase() : undefined;
}

/** A token in a request body or an event: a UUID, decoded to lower case. */
export const TokenId = new t.Type<string, string, unknown>(
  'TokenId',
  (u): u is string => typeof u === 'string' && UUID.test(u),
  (u, c) => {
    if (typeof u !== 'string') return t.failure(u, c);
    const token = normaliseTokenId(u);
    return token === undefined ? t.failure(u, c, 'is not a token (UUID format)') : t.success(token);
  },
  t.identity,
);

/**
 * What is stored of a token: the SHA-256 of its canonical form, never the
 * token itself (a token is a bearer secret; 122 random bits make a fast
 * unsalted digest enough, as for agent secrets).
 */
export const tokenSha256 = (token: string): string => sha256Hex(token.toLowerCase());

/**
 * The id a token is stored and listed under: the first 122 bits of its
 * digest as a version-8 UUID (RFC 9562 "custom"). It has the UUID shape that
 * `listTokens` clients expect in `authenticationToken.token` and that
 * `revokeToken` accepts, it cannot be turned back into the token, and its
 * version digit 8 tells it apart from an issued token (version 4).
 */
export function tokenIdOfDigest(digest: string): string {
  const h = digest.slice(0, 32).split('');
  h[12] = '8';
  h[16] = ((parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}

export const tokenIdOf = (token: string): string => tokenIdOfDigest(tokenSha256(token));

/** True for a listed token id (a version-8 UUID), false for a token as issued. */
export const isTokenId = (uuid: string): boolean => uuid.charAt(14) === '8';
