// Digests: SHA-256 of a secret for storage, and ids that must come out the
// same each time they are made from the same things.
import { createHash } from 'node:crypto';

/**
 * SHA-256 of a secret for storage. Enough for secrets that are themselves
 * long random values (agent secrets, tokens: 122 bits or more), where a slow
 * salted hash would add cost on every request and no protection.
 */
export const sha256Hex = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

/**
 * A UUID-shaped digest of `parts` (version 5 layout: name based, SHA-1), for an
 * id that must be the same wherever and whenever it is made from the same
 * things: an engine output made again from the same input, a delivery a reader
 * sends again (its event id then lets the store answer it as already stored).
 */
export function nameBasedUuid(...parts: readonly string[]): string {
  const h = createHash('sha1').update(parts.join('\u0000')).digest('hex');
  // The version nibble and the RFC 4122 variant bits.
  const variant = ((parseInt(h[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
