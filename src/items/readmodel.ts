// Queries of the items and history read models (layout in ./keys.ts).
// Items come in EPC order, history in (observationTime, event, change) order;
// a page marker carries the last EPC / history id returned, so paging never
// repeats an entry and never skips one that matched all along, whatever is
// written between pages.
import type { RedisClient } from '../core/redis/connect';
import type { RedisKeys } from '../core/redis/keys';
import { formatEpc } from './epc';
import type { HistoryQuery, ItemsQuery } from './query';
import { ReadModelGate } from '../core/redis/readiness';
import { itemKeys, ITEMS_READ_MODEL, type ItemKeys } from './keys';
import { lexPage, timeKey, timeRangeOf } from '../core/redis/lex-page';
import { perSecond, type Rates } from '../core/rates';
import { decodeStoredHistory, type Item, type ItemEvent } from './model';
import { decodeStoredItem, type StoredItem } from './stored-item';

const CHUNK = 1000;
/** With a time filter matching at most this many items, the time index picks the candidates. */
const TIME_INDEX_LIMIT = 20_000;

export interface ItemsPage {
  readonly items: Item[];
  readonly nextPageMarker: string | null;
}

export interface HistoryPage {
  readonly history: ItemEvent[];
  readonly nextPageMarker: string | null;
  readonly moreHistoryAvailable: boolean;
}

/** Lex bound just after every member starting with `prefix` (members are upper-case hex or digits). */
const prefixEnd = (prefix: string): string => `(${prefix}~`;

export class ItemsReadModel {
  private readonly k: ItemKeys;
  private readonly gate: ReadModelGate;

  constructor(
    private readonly redis: RedisClient,
    keys: RedisKeys,
  ) {
    this.k = itemKeys(keys);
    this.gate = new ReadModelGate(redis, keys);
  }

  async get(epc: string): Promise<StoredItem | undefined> {
    const key = epc.toUpperCase();
    const raw = await this.gate.read(ITEMS_READ_MODEL, () => this.redis.hGet(this.k.item, key));
    return raw == null ? undefined : decodeStoredItem(key, raw);
  }

  items(q: ItemsQuery): Promise<ItemsPage> {
    return this.gate.read(ITEMS_READ_MODEL, () => this.itemsNow(q));
  }

  history(q: HistoryQuery): Promise<HistoryPage> {
    return this.gate.read(ITEMS_READ_MODEL, () => this.historyNow(q));
  }

  /** Item changes per second (history records, by observation time) of the `seconds` before `nowMs`. */
  rates(nowMs: number, seconds: number): Promise<Rates> {
    return this.gate.read(ITEMS_READ_MODEL, () => perSecond(nowMs, seconds, (from, to) => this.redis.zLexCount(this.k.history, `[${timeKey(from)}`, `(${timeKey(to)}`)));
  }

  private async itemsNow(q: ItemsQuery): Promise<ItemsPage> {
    const zones = q.zoneNames ? new Set(q.zoneNames) : undefined;
    const found: { epc: string; item: Item }[] = [];
    const accept = (stored: StoredItem | undefined): void => {
      if (!stored) return;
      const { item, ms } = stored;
      if (q.jobId !== undefined && item.jobId !== q.jobId) return;
      if (zones && !zones.has(item.zone)) return;
      if (q.facility !== undefined && item.facility !== q.facility) return;
      if (q.fromMs !== undefined && ms < q.fromMs) return;
      if (q.toMs !== undefined && ms >= q.toMs) return;
      if (q.epcPrefix !== undefined && !item.epc.startsWith(q.epcPrefix)) return;
      if (q.after !== undefined && item.epc <= q.after) return;
      const shown = q.epcFormat === undefined ? item.epc : formatEpc(item.epc, q.epcFormat);
      if (shown === undefined) return;
      found.push({ epc: item.epc, item: shown === item.epc ? item : { ...item, epc: shown } });
    };
    const candidates = await this.timeCandidates(q);
    if (candidates) {
      for (let i = 0; i < candidates.length && found.length <= q.pageSize; i += CHUNK) {
        for (const s of await this.load(candidates.slice(i, i + CHUNK))) accept(s);
      }
    } else {
      // The smallest index the filters allow; the others are checked per item.
      const key =
        q.jobId !== undefined ? this.k.job(q.jobId)
        : q.zoneNames?.length === 1 ? this.k.zone(q.zoneNames[0]!)
        : q.facility !== undefined ? this.k.facility(q.facility)
        : this.k.all;
      const prefix = q.epcPrefix;
      let min = q.after !== undefined && (prefix === undefined || q.after >= prefix) ? `(${q.after}` : prefix !== undefined ? `[${prefix}` : '-';
      const max = prefix !== undefined ? prefixEnd(prefix) : '+';
      while (found.length <= q.pageSize) {
        const epcs = await this.redis.zRange(key, min, max, { BY: 'LEX', LIMIT: { offset: 0, count: CHUNK } });
        for (const s of await this.load(epcs)) accept(s);
        const last = epcs[epcs.length - 1];
        if (last === undefined || epcs.length < CHUNK) break;
        min = `(${last}`;
      }
    }
    const page = found.slice(0, q.pageSize);
    const last = page[page.length - 1];
    return { items: page.map((f) => f.item), nextPageMarker: found.length > q.pageSize && last ? q.marker(last.epc) : null };
  }

  /** With a narrow time filter: the EPCs it matches, sorted, after the cursor. Otherwise undefined. */
  private async timeCandidates(q: ItemsQuery): Promise<string[] | undefined> {
    if (q.fromMs === undefined && q.toMs === undefined) return undefined;
    const min = q.fromMs === undefined ? '-inf' : String(q.fromMs);
    const max = q.toMs === undefined ? '+inf' : `(${q.toMs}`;
    if ((await this.redis.zCount(this.k.time, min, max)) > TIME_INDEX_LIMIT) return undefined;
    const epcs = await this.redis.zRange(this.k.time, min, max, { BY: 'SCORE' });
    return epcs.filter((e) => q.after === undefined || e > q.after).sort();
  }

  private async load(epcs: readonly string[]): Promise<Array<StoredItem | undefined>> {
    if (epcs.length === 0) return [];
    const raws = await this.redis.hmGet(this.k.item, [...epcs]);
    return raws.map((raw, i) => (raw == null ? undefined : decodeStoredItem(epcs[i]!, raw)));
  }

  private async historyNow(q: HistoryQuery): Promise<HistoryPage> {
    const accept = (id: string, raw: string): ItemEvent | undefined => {
      const stored = decodeStoredHistory(id, raw);
      const r = stored.record;
      if (q.epcPrefix !== undefined && !r.epc.startsWith(q.epcPrefix)) return;
      if (q.jobId !== undefined && stored.jobId !== q.jobId) return;
      if (q.fromZone !== undefined && r.fromZone !== q.fromZone) return;
      if (q.toZone !== undefined && r.toZone !== q.toZone) return;
      if (q.fromFacility !== undefined && r.fromFacility !== q.fromFacility) return;
      if (q.toFacility !== undefined && r.toFacility !== q.toFacility) return;
      if (q.zoneTransitionsOnly && stored.moved) return;
      if (q.minDistanceMoved !== undefined && q.minDistanceMoved > 0) {
        if (r.fromX === null || r.fromY === null || r.toX === null || r.toY === null) return;
        if (Math.hypot(r.toX - r.fromX, r.toY - r.fromY) < q.minDistanceMoved) return;
      }
      const shown = q.epcFormat === undefined ? r.epc : formatEpc(r.epc, q.epcFormat);
      if (shown === undefined) return undefined;
      return shown === r.epc ? r : { ...r, epc: shown };
    };
    const { page, more } = await lexPage(this.redis, { index: this.k.history, records: this.k.historyRecord }, timeRangeOf(q), accept);
    const lastId = page[page.length - 1]?.id ?? q.after;
    const nextPageMarker = more || q.alwaysIncludePageMarker ? q.marker(lastId) : null;
    return { history: page.map((f) => f.value), nextPageMarker, moreHistoryAvailable: more };
  }
}
