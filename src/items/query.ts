// The query parameters of GET /data/v1/items/show and .../show/history,
// decoded into what the read models need. Every bad parameter is a 400
// naming `query.<name>`; parameters these queries do not know are refused
// (a misspelt filter would otherwise silently answer everything). Page
// markers are bound to the normalised parameters (src/core/paging.ts).
import * as t from 'io-ts';
import * as E from 'fp-ts/Either';
import { badRequest, type FieldError } from '../core/http/errors';
import { decodePageMarker, decodePageSize, encodePageMarker } from '../core/paging';
import { IsoTimestamp } from '../core/codecs';
import { EPC_FORMATS, isHex, type EpcFormat } from './epc';

export type RawQuery = Readonly<Record<string, string | readonly string[] | undefined>>;

export const ITEMS_PARAMETERS = [
  'epcPrefix', 'jobId', 'zoneNames', 'facility', 'presenceConfidence', 'fromTime', 'toTime', 'epcFormat', 'pageMarker', 'pageSize',
] as const;
export const HISTORY_PARAMETERS = [
  'epcPrefix', 'jobId', 'fromZone', 'toZone', 'fromFacility', 'toFacility', 'fromTime', 'toTime', 'zoneTransitionsOnly',
  'minDistanceMoved', 'epcFormat', 'pageSize', 'pageMarker', 'alwaysIncludePageMarker',
] as const;

/** Collects field errors so one response names every bad parameter. */
export class QueryReader {
  readonly errors: FieldError[] = [];
  constructor(
    private readonly raw: RawQuery,
    known: readonly string[],
  ) {
    for (const name of Object.keys(raw)) {
      if (!known.includes(name)) this.fail(name, `is not a parameter of this query (${known.join(', ')})`);
    }
  }

  fail(name: string, reason: string): undefined {
    this.errors.push({ path: `query.${name}`, reason });
    return undefined;
  }

  /** The value of a parameter given at most once; an empty value counts as absent. */
  string(name: string): string | undefined {
    const v = this.raw[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'string') return this.fail(name, 'must be given once');
    return v === '' ? undefined : v;
  }

  epcPrefix(name: string): string | undefined {
    const v = this.string(name);
    if (v === undefined) return undefined;
    return isHex(v) ? v.toUpperCase() : this.fail(name, `must be hexadecimal digits, got ${JSON.stringify(v)}`);
  }

  timeMs(name: string): number | undefined {
    const v = this.string(name);
    if (v === undefined) return undefined;
    return IsoTimestamp.is(v) ? Date.parse(v) : this.fail(name, `must be an ISO 8601 timestamp, got ${JSON.stringify(v)}`);
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    const v = this.string(name);
    if (v === undefined) return undefined;
    return (values as readonly string[]).includes(v) ? (v as T) : this.fail(name, `must be one of ${values.join(', ')}, got ${JSON.stringify(v)}`);
  }

  boolean(name: string): boolean | undefined {
    const v = this.oneOf(name, ['true', 'false']);
    return v === undefined ? undefined : v === 'true';
  }

  nonNegativeNumber(name: string): number | undefined {
    const v = this.string(name);
    if (v === undefined) return undefined;
    const n = /^[0-9]+(\.[0-9]+)?$/.test(v) ? Number(v) : NaN;
    return Number.isFinite(n) ? n : this.fail(name, `must be a non-negative number of meters, got ${JSON.stringify(v)}`);
  }

  timeRange(): { fromMs: number | undefined; toMs: number | undefined } {
    const fromMs = this.timeMs('fromTime');
    const toMs = this.timeMs('toTime');
    if (fromMs !== undefined && toMs !== undefined && fromMs > toMs) this.fail('toTime', 'must not be before fromTime');
    return { fromMs, toMs };
  }

  pageSize(): number {
    const r = decodePageSize(this.raw['pageSize']);
    if (E.isLeft(r)) {
      this.errors.push(...r.left.errors);
      return 0;
    }
    return r.right;
  }

  throwIfFailed(): void {
    if (this.errors.length > 0) throw badRequest('Invalid request query', this.errors);
  }
}

export function cursorOf<C>(raw: RawQuery, bound: Record<string, unknown>, scope: string, codec: t.Decoder<unknown, C>): C | undefined {
  const marker = raw['pageMarker'];
  if (marker === undefined || marker === '') return undefined;
  if (typeof marker !== 'string') throw badRequest('Invalid request query', [{ path: 'query.pageMarker', reason: 'must be given once' }]);
  const r = decodePageMarker(marker, bound, { scope }, codec);
  if (E.isLeft(r)) throw r.left;
  return r.right;
}

/** `zoneNames`: comma-separated, trimmed, sorted, without duplicates; empty is an error. */
function zoneNamesOf(q: QueryReader): string[] | undefined {
  const zonesRaw = q.string('zoneNames');
  const zoneNames = zonesRaw === undefined ? undefined : [...new Set(zonesRaw.split(',').map((z) => z.trim()).filter((z) => z !== ''))].sort();
  if (zoneNames?.length === 0) q.fail('zoneNames', 'must name at least one zone (comma-separated)');
  return zoneNames;
}

export interface ItemsQuery {
  readonly epcPrefix: string | undefined;
  readonly jobId: string | undefined;
  /** Sorted, without duplicates. */
  readonly zoneNames: readonly string[] | undefined;
  readonly facility: string | undefined;
  readonly fromMs: number | undefined;
  readonly toMs: number | undefined;
  readonly epcFormat: EpcFormat | undefined;
  readonly pageSize: number;
  /** The EPC the previous page ended with (exclusive). */
  readonly after: string | undefined;
  /** The marker of the page after the one ending at `epc`. */
  marker(epc: string): string;
}

const ITEMS_SCOPE = 'items';
const ItemsCursor = t.type({ epc: t.string });

export function parseItemsQuery(raw: RawQuery): ItemsQuery {
  const q = new QueryReader(raw, ITEMS_PARAMETERS);
  const epcPrefix = q.epcPrefix('epcPrefix');
  const jobId = q.string('jobId');
  const zoneNames = zoneNamesOf(q);
  const facility = q.string('facility');
  q.oneOf('presenceConfidence', ['HIGH', 'LOW']); // deprecated: accepted, no effect
  const { fromMs, toMs } = q.timeRange();
  const epcFormat = q.oneOf('epcFormat', EPC_FORMATS);
  const pageSize = q.pageSize();
  q.throwIfFailed();
  // presenceConfidence has no effect, so it does not bind a marker either.
  const bound = { epcPrefix, jobId, zoneNames, facility, fromMs, toMs, epcFormat };
  const after = cursorOf(raw, bound, ITEMS_SCOPE, ItemsCursor)?.epc;
  return {
    epcPrefix, jobId, zoneNames, facility, fromMs, toMs, epcFormat, pageSize, after,
    marker: (epc) => encodePageMarker(bound, { epc }, { scope: ITEMS_SCOPE }),
  };
}

export interface HistoryQuery {
  readonly epcPrefix: string | undefined;
  readonly jobId: string | undefined;
  readonly fromZone: string | undefined;
  readonly toZone: string | undefined;
  readonly fromFacility: string | undefined;
  readonly toFacility: string | undefined;
  readonly fromMs: number | undefined;
  readonly toMs: number | undefined;
  readonly zoneTransitionsOnly: boolean;
  readonly minDistanceMoved: number | undefined;
  readonly epcFormat: EpcFormat | undefined;
  readonly pageSize: number;
  readonly alwaysIncludePageMarker: boolean;
  /** The history id the previous page ended with (exclusive). */
  readonly after: string | undefined;
  marker(id: string | undefined): string;
}

const HISTORY_SCOPE = 'history';
const HistoryCursor = t.type({ id: t.union([t.string, t.null]) });

export function parseHistoryQuery(raw: RawQuery): HistoryQuery {
  const q = new QueryReader(raw, HISTORY_PARAMETERS);
  const epcPrefix = q.epcPrefix('epcPrefix');
  const jobId = q.string('jobId');
  const fromZone = q.string('fromZone');
  const toZone = q.string('toZone');
  const fromFacility = q.string('fromFacility');
  const toFacility = q.string('toFacility');
  const { fromMs, toMs } = q.timeRange();
  const zoneTransitionsOnly = q.boolean('zoneTransitionsOnly') ?? true;
  const minDistanceMoved = q.nonNegativeNumber('minDistanceMoved');
  const epcFormat = q.oneOf('epcFormat', EPC_FORMATS);
  const pageSize = q.pageSize();
  const alwaysIncludePageMarker = q.boolean('alwaysIncludePageMarker') ?? false;
  q.throwIfFailed();
  const bound = { epcPrefix, jobId, fromZone, toZone, fromFacility, toFacility, fromMs, toMs, zoneTransitionsOnly, minDistanceMoved, epcFormat, alwaysIncludePageMarker };
  const after = cursorOf(raw, bound, HISTORY_SCOPE, HistoryCursor)?.id ?? undefined;
  return {
    epcPrefix, jobId, fromZone, toZone, fromFacility, toFacility, fromMs, toMs, zoneTransitionsOnly, minDistanceMoved, epcFormat,
    pageSize, alwaysIncludePageMarker, after,
    marker: (id) => encodePageMarker(bound, { id: id ?? null }, { scope: HISTORY_SCOPE }),
  };
}

export const AS_OF_PARAMETERS = ['facility', 'time', 'epcPrefix', 'zoneNames', 'epcFormat', 'pageSize', 'pageMarker'] as const;

export interface AsOfQuery {
  readonly facility: string;
  /** The requested time (epoch ms); may be in the future. */
  readonly timeMs: number;
  readonly epcPrefix: string | undefined;
  /** Sorted, without duplicates. */
  readonly zoneNames: readonly string[] | undefined;
  readonly epcFormat: EpcFormat | undefined;
  readonly pageSize: number;
  /** The EPC the previous page ended with (exclusive). */
  readonly after: string | undefined;
  /**
   * The time the first page answered for (a future time is answered as of
   * the request): later pages answer for the same one.
   */
  readonly pinnedAsOfMs: number | undefined;
  /** The marker of the page after the one ending at `epc`, answered as of `asOfMs`. */
  marker(epc: string, asOfMs: number): string;
}

const AS_OF_SCOPE = 'asOf';
const AsOfCursor = t.type({ epc: t.string, asOf: t.number });

/** GET /data/v1/items/show/asOf: `facility` and `time` are required. */
export function parseAsOfQuery(raw: RawQuery): AsOfQuery {
  const q = new QueryReader(raw, AS_OF_PARAMETERS);
  const facility = q.string('facility');
  if (facility === undefined && q.errors.every((e) => e.path !== 'query.facility')) q.fail('facility', 'is required');
  const timeMs = q.timeMs('time');
  if (timeMs === undefined && q.errors.every((e) => e.path !== 'query.time')) q.fail('time', 'is required (an ISO 8601 timestamp)');
  const epcPrefix = q.epcPrefix('epcPrefix');
  const zoneNames = zoneNamesOf(q);
  const epcFormat = q.oneOf('epcFormat', EPC_FORMATS);
  const pageSize = q.pageSize();
  q.throwIfFailed();
  if (facility === undefined || timeMs === undefined) throw badRequest('Invalid request query'); // unreachable: reported above
  const bound = { facility, timeMs, epcPrefix, zoneNames, epcFormat };
  const cursor = cursorOf(raw, bound, AS_OF_SCOPE, AsOfCursor);
  return {
    facility, timeMs, epcPrefix, zoneNames, epcFormat, pageSize, after: cursor?.epc, pinnedAsOfMs: cursor?.asOf,
    marker: (epc, asOfMs) => encodePageMarker(bound, { epc, asOf: asOfMs }, { scope: AS_OF_SCOPE }),
  };
}
