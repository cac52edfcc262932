// Queries of the reader health read model (layout in ./keys.ts).
import { perSecond, type Rates } from '../core/rates';
import type { RedisClient } from '../core/redis/connect';
import type { RedisKeys } from '../core/redis/keys';
import type { ReaderHealthState } from './state';
import { encodeMarker, isAfter, type HealthEventQuery } from './search';
import { ReadModelGate } from '../core/redis/readiness';
import { decodeReaderState, HEALTH_READ_MODEL, healthKeys } from './keys';
import { decodeMember, type HealthEventView } from './searchable';

const CHUNK = 500;

export interface HealthEventPage {
  readonly events: HealthEventView[];
  readonly nextPageMarker: string | null;
}

export class HealthReadModel {
  private readonly k: ReturnType<typeof healthKeys>;
  private readonly gate: ReadModelGate;

  constructor(
    private readonly redis: RedisClient,
    keys: RedisKeys,
  ) {
    this.k = healthKeys(keys);
    this.gate = new ReadModelGate(redis, keys);
  }

  async state(reader: string): Promise<ReaderHealthState | undefined> {
    const json = await this.gate.read(HEALTH_READ_MODEL, () => this.redis.hGet(this.k.readers, reader));
    return json == null ? undefined : decodeReaderState(reader, json);
  }

  async states(): Promise<Map<string, ReaderHealthState>> {
    const all = await this.gate.read(HEALTH_READ_MODEL, () => this.redis.hGetAll(this.k.readers));
    return new Map(Object.entries(all).map(([r, json]) => [r, decodeReaderState(r, json)]));
  }

  /** The gateway's last check-in per reader. */
  async lastCheckins(): Promise<Map<string, string>> {
    return new Map(Object.entries(await this.gate.read(HEALTH_READ_MODEL, () => this.redis.hGetAll(this.k.lastCheckin))));
  }

  /** Health events per second (by event time) of the `seconds` before `nowMs`. */
  rates(nowMs: number, seconds: number): Promise<Rates> {
    return this.gate.read(HEALTH_READ_MODEL, () => perSecond(nowMs, seconds, (from, to) => this.redis.zCount(this.k.events, from, `(${to}`)));
  }

  async lastCheckin(reader: string): Promise<string | undefined> {
    return (await this.gate.read(HEALTH_READ_MODEL, () => this.redis.hGet(this.k.lastCheckin, reader))) ?? undefined;
  }

  search(q: HealthEventQuery): Promise<HealthEventPage> {
    return this.gate.read(HEALTH_READ_MODEL, () => this.searchNow(q));
  }

  private async searchNow(q: HealthEventQuery): Promise<HealthEventPage> {
    // One reader: its own set; otherwise the global set, filtered here.
    const key = q.readerNames?.length === 1 ? this.k.readerEvents(q.readerNames[0]!) : this.k.events;
    const readers = q.readerNames ? new Set(q.readerNames) : undefined;
    const types = q.types ? new Set<string>(q.types) : undefined;
    const codes = q.codes ? new Set(q.codes) : undefined;
    if (readers?.size === 0 || types?.size === 0 || codes?.size === 0) return { events: [], nextPageMarker: null };
    // The page marker bounds the side the walk comes from: the lower end oldest first, the upper end newest first.
    const min = Math.max(q.newestFirst ? -Infinity : q.after?.score ?? -Infinity, q.fromMs ?? -Infinity);
    const max = Math.min(q.newestFirst ? q.after?.score ?? Infinity : Infinity, q.toMs ?? Infinity);
    const found: { view: HealthEventView; score: number; member: string }[] = [];
    for (let offset = 0; found.length <= q.pageSize; offset += CHUNK) {
      // With REV, Redis takes the range from its upper end.
      const chunk = q.newestFirst
        ? await this.redis.zRangeWithScores(key, score(max), score(min), { BY: 'SCORE', REV: true, LIMIT: { offset, count: CHUNK } })
        : await this.redis.zRangeWithScores(key, score(min), score(max), { BY: 'SCORE', LIMIT: { offset, count: CHUNK } });
      for (const { value, score: s } of chunk) {
        if (!isAfter({ score: s, member: value }, q.after, q.newestFirst === true)) continue;
        const view = decodeMember(value);
        if (readers && !readers.has(view.readerName)) continue;
        if (types && !types.has(view.type)) continue;
        if (codes && !codes.has(view.code)) continue;
        found.push({ view, score: s, member: value });
        if (found.length > q.pageSize) break;
      }
      if (chunk.length < CHUNK) break;
    }
    const page = found.slice(0, q.pageSize);
    const last = page[page.length - 1];
    const more = found.length > q.pageSize && last !== undefined;
    return {
      events: page.map((f) => f.view),
      nextPageMarker: more ? encodeMarker(q.fingerprint, { score: last.score, member: last.member }) : null,
    };
  }
}

const score = (n: number): string | number => (n === Infinity ? '+inf' : n === -Infinity ? '-inf' : n);
