// SHA-256 of a secret for storage. Enough for secrets that are themselves
// long random values (agent secrets, tokens: 122 bits or more), where a slow
// salted hash would add cost on every request and no protection.
import { createHash } from 'node:crypto';

export const sha256Hex = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');
