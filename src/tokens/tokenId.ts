// Authentication tokens are random UUIDs (version 4, 122 random bits): long
// enough that guessing one is hopeless, and the format clients expect.
import { randomUUID } from 'node:crypto';
import * as t from 'io-ts';

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
