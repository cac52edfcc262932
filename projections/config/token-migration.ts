// Read models written before tokens were stored hashed keep each token
// itself as a hash field (tokens, revoked tokens, last-used times), and the
// projection's checkpoint is past the events that wrote them, so a start
// would not rewrite them. This rewrites them in place, once, under the
// token's id (src/auth/token-id.ts) and removes the tokens: the tokens keep
// working, and Redis holds none. Issued tokens are version-4 UUIDs and ids
// version-8 ones, so the fields still to convert are told apart by shape;
// running it again finds nothing to do.
import * as t from 'io-ts';
import type { RedisClient } from '../../src/core/redis/connect';
import { decodeStored } from '../../src/core/stored-json';
import type { RedisKeys } from '../../src/core/redis/keys';
import type { Logger } from '../../src/core/logger';
import { isTokenId, normaliseTokenId, tokenIdOf } from '../../src/auth';
import { tokensKey, tokensRevokedIdsKey } from '../../src/auth';

/** A token document as versions before hashed tokens stored it (no id: the field was the token). */
const OldTokenDoc = t.type({ username: t.string, issued: t.string, valid: t.boolean, seq: t.string });

/** A field that holds a token itself rather than a token id. */
const isPlainToken = (field: string): boolean => normaliseTokenId(field) !== undefined && !isTokenId(field);

/** Rewrites every token-keyed field of the token read models; answers how many tokens it found. */
export async function replaceStoredTokensByIds(redis: RedisClient, keys: RedisKeys, logger: Logger): Promise<number> {
  const docsKey = tokensKey(keys.base);
  const revokedKey = tokensRevokedIdsKey(keys.base);
  const [docs, revoked, lastUsed] = await Promise.all([redis.hGetAll(docsKey), redis.hGetAll(revokedKey), redis.hGetAll(keys.tokenLastUsed)]);
  const tx = redis.multi();
  let tokens = 0;
  for (const [field, raw] of Object.entries(docs)) {
    if (!isPlainToken(field)) continue;
    const id = tokenIdOf(field);
    // Named by its id: the field is a token, which no error may show.
    const doc = decodeStored(OldTokenDoc, raw, `auth read model: token ${id} (stored before tokens were hashed)`);
    tx.hSet(docsKey, id, JSON.stringify({ id, username: doc.username, issued: doc.issued, valid: doc.valid, seq: doc.seq }));
    tx.hDel(docsKey, field);
    tokens++;
  }
  let fields = tokens;
  for (const [key, hash] of [
    [revokedKey, revoked],
    [keys.tokenLastUsed, lastUsed],
  ] as const) {
    for (const [field, value] of Object.entries(hash)) {
      if (!isPlainToken(field)) continue;
      tx.hSet(key, tokenIdOf(field), value);
      tx.hDel(key, field);
      fields++;
    }
  }
  if (fields === 0) return 0;
  await tx.exec();
  logger.info('token read model: stored tokens replaced by their ids', { tokens, fields });
  return tokens;
}
