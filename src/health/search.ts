// POST /health/v1/events: the search body, its paging marker and the pure
// parts of the search. Events come in ascending (eventTime, member) order; the
// marker is opaque to clients (base64url JSON of where the page ended plus a
// fingerprint of the filters, so a marker used with other filters is a 400).
import * as t from 'io-ts';
import { badRequest } from '../core/http/errors';
import { decodeInput, refuseUnknownFields } from '../core/http/decode';
import { Name } from '../core/codecs';
import { failureReason, IsoTimestamp } from '../readerdefinitions';
import { HealthEventTypeCodec, SearchableCodeCodec, type HealthEventType } from './codes';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

const PageSize = new t.Type<number, number, unknown>(
  'pageSize',
  (u): u is number => typeof u === 'number' && Number.isSafeInteger(u) && u >= 1 && u <= MAX_PAGE_SIZE,
  (u, c) =>
    typeof u === 'number' && Number.isSafeInteger(u) && u >= 1 && u <= MAX_PAGE_SIZE
      ? t.success(u)
      : t.failure(u, c, failureReason('pageSize', `must be an integer from 1 to ${MAX_PAGE_SIZE}`, u)),
  t.identity,
);

export const HealthEventSearchBody = t.partial(
  {
    // Names of readers: held to the rule of names, as every filter field is.
    readerNames: t.array(Name),
    types: t.array(HealthEventTypeCodec),
    codes: t.array(SearchableCodeCodec),
    fromTime: IsoTimestamp,
    toTime: IsoTimestamp,
    pageSize: PageSize,
    nextPageMarker: t.string,
    // Ours: newest first, for people watching what happens now (the default stays oldest first, as clients expect).
    newestFirst: t.boolean,
  },
  'HealthEventSearch',
);
export type HealthEventSearchBody = t.TypeOf<typeof HealthEventSearchBody>;

export interface PagePosition {
  readonly score: number;
  readonly member: string;
}

export interface HealthEventQuery {
  readonly readerNames: readonly string[] | undefined;
  readonly types: readonly HealthEventType[] | undefined;
  readonly codes: readonly string[] | undefined;
  readonly fromMs: number | undefined;
  readonly toMs: number | undefined;
  readonly pageSize: number;
  /** Where the previous page ended (exclusive). */
  readonly after: PagePosition | undefined;
  /** Identifies the filters (not the page size) a marker belongs to. */
  readonly fingerprint: string;
  /** Newest first: pages walk back in time (absent: oldest first). */
  readonly newestFirst?: boolean;
}

const sorted = (xs: readonly string[] | undefined): string[] | null => (xs ? [...new Set(xs)].sort() : null);

export function filtersFingerprint(b: HealthEventSearchBody): string {
  return JSON.stringify([
    sorted(b.readerNames),
    sorted(b.types),
    sorted(b.codes),
    b.fromTime === undefined ? null : Date.parse(b.fromTime),
    b.toTime === undefined ? null : Date.parse(b.toTime),
    ...(b.newestFirst === true ? ['newest first'] : []),
  ]);
}

interface Marker {
  readonly f: string;
  readonly s: number;
  readonly m: string;
}

export const encodeMarker = (fingerprint: string, at: PagePosition): string =>
  Buffer.from(JSON.stringify({ f: fingerprint, s: at.score, m: at.member } satisfies Marker)).toString('base64url');

function decodeMarker(marker: string): Marker | undefined {
  try {
    const m = JSON.parse(Buffer.from(marker, 'base64url').toString('utf8')) as Partial<Marker>;
    if (typeof m.f === 'string' && typeof m.s === 'number' && Number.isFinite(m.s) && typeof m.m === 'string') return m as Marker;
  } catch {
    // fall through: not ours
  }
  return undefined;
}

const markerError = (reason: string) =>
  badRequest('Invalid request body', [{ path: 'body.nextPageMarker', reason }]);

/** Decodes and checks the search body; throws a 400 ApiError naming the field. */
export function parseHealthEventSearch(body: unknown): HealthEventQuery {
  const b = decodeInput(HealthEventSearchBody, body ?? {}, 'body');
  // An unknown field is most likely a misspelt filter (readerName): refusing
  // it beats silently answering every event.
  refuseUnknownFields(b, Object.keys(HealthEventSearchBody.props), 'search');
  const fromMs = b.fromTime === undefined ? undefined : Date.parse(b.fromTime);
  const toMs = b.toTime === undefined ? undefined : Date.parse(b.toTime);
  if (fromMs !== undefined && toMs !== undefined && fromMs > toMs) {
    throw badRequest('Invalid request body', [{ path: 'body.toTime', reason: 'must not be before fromTime' }]);
  }
  const fingerprint = filtersFingerprint(b);
  let after: PagePosition | undefined;
  if (b.nextPageMarker !== undefined) {
    const m = decodeMarker(b.nextPageMarker);
    if (!m) throw markerError('is not a marker returned by this search');
    if (m.f !== fingerprint) throw markerError('belongs to a search with other filters (readerNames, types, codes, fromTime, toTime, newestFirst)');
    after = { score: m.s, member: m.m };
  }
  return {
    readerNames: b.readerNames,
    types: b.types,
    codes: b.codes,
    fromMs,
    toMs,
    pageSize: b.pageSize ?? DEFAULT_PAGE_SIZE,
    after,
    fingerprint,
    newestFirst: b.newestFirst === true,
  };
}

/** Redis orders equal scores by member bytes; so does this. Newest first, the order is reversed. */
export function isAfter(p: PagePosition, after: PagePosition | undefined, newestFirst = false): boolean {
  if (!after) return true;
  const order = p.score !== after.score ? Math.sign(p.score - after.score) : Buffer.compare(Buffer.from(p.member), Buffer.from(after.member));
  return newestFirst ? order < 0 : order > 0;
}
