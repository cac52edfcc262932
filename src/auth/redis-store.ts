// PrincipalStore on the Redis read models written by the users and tokens
// parts of the config projection (projections/config/auth.ts; keys in ./keys.ts).
// Token `lastUsed` is a plain Redis write, throttled per token, instead of an
// event per request. Tokens are looked up by their id, computed from the
// digest of the presented token: Redis holds no token.
import * as t from 'io-ts';
import type { RedisClient } from '../core/redis/connect';
import type { RedisKeys } from '../core/redis/keys';
import { decodeStored } from '../core/stored-json';
import { Role } from './roles';
import type { PrincipalStore, StoredToken, StoredUser } from './store';
import { USER_KIND, tokensKey, tokensRevokedIdsKey, tokensRevokedKey } from './keys';
import { tokenIdOf } from './token-id';
import { CONFIG_READ_MODEL } from '../core/resource/readmodel';
import { ReadModelGate } from '../core/redis/readiness';

const UserDoc = t.type({ name: t.string, roles: t.array(Role), passwordHash: t.string });
const TokenDoc = t.type({ id: t.string, username: t.string, issued: t.string, valid: t.boolean, seq: t.string });
type TokenDoc = t.TypeOf<typeof TokenDoc>;

const TOUCH_EVERY_MS = 10_000;

export class RedisPrincipalStore implements PrincipalStore {
  private readonly lastTouch = new Map<string, number>();
  // Users and tokens are part of the config read model. While it is not
  // ready (Redis lost it and it is rebuilding) "no such user" would be a
  // lie: the gate answers 503 instead of a wrong 401.
  private readonly gate: ReadModelGate;

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
  ) {
    this.gate = new ReadModelGate(redis, keys);
  }

  async findUser(name: string): Promise<StoredUser | undefined> {
    const raw = await this.gate.read(CONFIG_READ_MODEL, () => this.redis.hGet(this.keys.config(USER_KIND), name));
    return raw == null ? undefined : decodeStored(UserDoc, raw, `auth read model: user ${name}`);
  }

  findToken(token: string): Promise<StoredToken | undefined> {
    return this.findTokenById(tokenIdOf(token));
  }

  /** The token listed under `id` (what listTokens shows and revokeToken accepts). */
  async findTokenById(id: string): Promise<StoredToken | undefined> {
    const raw = await this.gate.read(CONFIG_READ_MODEL, () => this.redis.hGet(tokensKey(this.keys.base), id));
    if (raw == null) return undefined;
    const doc = decodeStored(TokenDoc, raw, `auth read model: token ${id}`);
    return { id: doc.id, username: doc.username, issued: new Date(doc.issued), valid: await this.isValid(doc) };
  }

  async touchToken(token: string, now: Date): Promise<void> {
    const id = tokenIdOf(token);
    const last = this.lastTouch.get(id) ?? 0;
    if (now.getTime() - last < TOUCH_EVERY_MS) return;
    this.lastTouch.set(id, now.getTime());
    if (this.lastTouch.size > 10_000) this.lastTouch.clear();
    await this.redis.hSet(this.keys.tokenLastUsed, id, now.toISOString());
  }

  private async isValid(doc: TokenDoc): Promise<boolean> {
    if (!doc.valid) return false;
    const revoked = await this.redis.hGet(tokensRevokedIdsKey(this.keys.base), doc.id);
    if (revoked != null) return false;
    const revokedAll = await this.redis.hGet(tokensRevokedKey(this.keys.base), doc.username);
    return revokedAll == null || BigInt(doc.seq) > BigInt(revokedAll);
  }
}
