// The configuration read model: one Redis hash per resource kind, name ->
// the resource's stored JSON. Small (hundreds of entries), read whole for
// validation snapshots and listings.
import type { ResourceKind } from './kind';
import { decodeStored } from '../stored-json';
import type { RedisKeys } from '../redis/keys';
import { ReadModelGate, type ReadinessRedis } from '../redis/readiness';

/** The name of the config read model (readiness, `npm run rebuild -- config`). */
export const CONFIG_READ_MODEL = 'config';

export interface ConfigRedis extends ReadinessRedis {
  hGet(key: string, field: string): Promise<string | null | undefined>;
  hGetAll(key: string): Promise<Record<string, string>>;
}

export class ConfigReadModel {
  private readonly gate: ReadModelGate;

  constructor(
    private readonly redis: ConfigRedis,
    private readonly keys: RedisKeys,
  ) {
    this.gate = new ReadModelGate(redis, keys);
  }

  async get<R>(k: ResourceKind<R>, name: string): Promise<R | undefined> {
    const raw = await this.gate.read(CONFIG_READ_MODEL, () => this.redis.hGet(this.keys.config(k.kind), name));
    return raw == null ? undefined : decode(k, name, raw);
  }

  async list<R>(k: ResourceKind<R>): Promise<R[]> {
    const all = await this.gate.read(CONFIG_READ_MODEL, () => this.redis.hGetAll(this.keys.config(k.kind)));
    return Object.keys(all)
      .sort()
      .map((name) => decode(k, name, all[name] ?? 'null'));
  }

  async map<R>(k: ResourceKind<R>): Promise<Map<string, R>> {
    const all = await this.gate.read(CONFIG_READ_MODEL, () => this.redis.hGetAll(this.keys.config(k.kind)));
    return new Map(Object.entries(all).map(([name, raw]) => [name, decode(k, name, raw)]));
  }
}

// The read model is written by our projection only; a document that does not
// decode means a bug or a hand edit, and must be named, not served.
function decode<R>(k: ResourceKind<R>, name: string, raw: string): R {
  return decodeStored(k.codec, raw, `config read model: ${k.kind} ${name}`);
}
