// Opaque page markers bound to the query that produced them, and the
// `pageSize` query parameter. Used by the items and history queries; see
// docs/item-processing.md, "EPC formats and paging".
//
// A marker is `<payload>.<mac>`, both base64url: the payload is the JSON
// `{v: 1, q, c}` where `q` is a SHA-256 of the query's parameters (all but
// pageMarker and pageSize, in a canonical form) and `c` the read model's
// cursor; the mac is an HMAC-SHA256 (first 128 bits) of the payload. So a
// client can neither forge nor edit a cursor, and a marker used with other
// parameters is refused with a 400 naming `query.pageMarker`.
//
// The HMAC key is random per process unless one is configured with
// `configurePageMarkerKey` (needed when several API processes share clients,
// or for markers to survive a restart). A marker from before a restart with a
// random key is refused like any other unknown marker: the client starts again
// from the first page.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import * as t from 'io-ts';
import * as E from 'fp-ts/Either';
import { badRequest, type ApiError } from './http/errors';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

/** Parameters that do not bind a marker: the marker itself, and the page size (a client may change it between pages). */
export const UNBOUND_PARAMETERS: readonly string[] = ['pageMarker', 'pageSize'];

const MARKER_VERSION = 1;
const MAC_BYTES = 16;
/** Longer markers are refused before any parsing (ours are far shorter). */
export const MAX_MARKER_LENGTH = 4096;

let processKey: Buffer = randomBytes(32);

/**
 * Sets the HMAC key of page markers (at least 16 bytes); markers made under
 * the previous key stop being accepted.
 */
export function configurePageMarkerKey(key: string | Buffer): void {
  const k = typeof key === 'string' ? Buffer.from(key, 'utf8') : key;
  if (k.length < 16) throw new Error('page marker key must be at least 16 bytes');
  processKey = Buffer.from(k);
}

/**
 * The canonical JSON of a value: object keys sorted, undefined members
 * dropped, arrays in their order. Parameter values are compared as given:
 * `zoneNames=a,b` and `zoneNames=b,a` are different queries unless the caller
 * normalises them before.
 */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonical(v))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The hash a marker carries of the parameters it is bound to (all but pageMarker and pageSize), under `scope`. */
export function queryFingerprint(query: Readonly<Record<string, unknown>>, scope = ''): string {
  const bound = Object.fromEntries(Object.entries(query).filter(([k]) => !UNBOUND_PARAMETERS.includes(k)));
  return createHash('sha256').update(canonical([scope, bound])).digest('base64url');
}

const mac = (payload: string, key: Buffer): Buffer =>
  createHmac('sha256', key).update(payload, 'utf8').digest().subarray(0, MAC_BYTES);

export interface PageMarkerOptions {
  /**
   * Which query the marker belongs to (`items`, `history`): a marker of one
   * query is refused by another even when the parameters are equal.
   */
  readonly scope?: string;
  /** HMAC key; the configured (or per-process) key by default. */
  readonly key?: Buffer;
}

/**
 * A marker for the page after `cursor` of `query`. The cursor must be plain
 * JSON (it is carried as JSON, readable by the client though not editable).
 */
export function encodePageMarker(query: Readonly<Record<string, unknown>>, cursor: unknown, options: PageMarkerOptions = {}): string {
  const payload = Buffer.from(
    JSON.stringify({ v: MARKER_VERSION, q: queryFingerprint(query, options.scope), c: cursor ?? null }),
    'utf8',
  ).toString('base64url');
  return `${payload}.${mac(payload, options.key ?? processKey).toString('base64url')}`;
}

const markerError = (reason: string): ApiError => badRequest('Invalid request query', [{ path: 'query.pageMarker', reason }]);

const NOT_OURS = 'is not a page marker issued by this service';
const OTHER_QUERY = `belongs to a query with other parameters (all but ${UNBOUND_PARAMETERS.join(' and ')} must be the same)`;

/**
 * The cursor of `marker` when it was made by this service for these same
 * parameters (pageSize aside); otherwise a 400 naming `query.pageMarker`.
 * With `cursorCodec`, the cursor is also decoded (a mismatch is a 400 too:
 * markers of an older format).
 */
export function decodePageMarker(marker: string, query: Readonly<Record<string, unknown>>, options?: PageMarkerOptions): E.Either<ApiError, unknown>;
export function decodePageMarker<C>(
  marker: string,
  query: Readonly<Record<string, unknown>>,
  options: PageMarkerOptions,
  cursorCodec: t.Decoder<unknown, C>,
): E.Either<ApiError, C>;
export function decodePageMarker<C>(
  marker: string,
  query: Readonly<Record<string, unknown>>,
  options: PageMarkerOptions = {},
  cursorCodec?: t.Decoder<unknown, C>,
): E.Either<ApiError, unknown> {
  if (typeof marker !== 'string' || marker.length > MAX_MARKER_LENGTH) return E.left(markerError(NOT_OURS));
  const parts = marker.split('.');
  const [payload, sig] = parts;
  if (parts.length !== 2 || !payload || !sig || !/^[A-Za-z0-9_-]+$/.test(payload) || !/^[A-Za-z0-9_-]+$/.test(sig)) {
    return E.left(markerError(NOT_OURS));
  }
  const given = Buffer.from(sig, 'base64url');
  const expected = mac(payload, options.key ?? processKey);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return E.left(markerError(NOT_OURS));
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return E.left(markerError(NOT_OURS));
  }
  const m = body as { v?: unknown; q?: unknown; c?: unknown } | null;
  if (m === null || typeof m !== 'object' || m.v !== MARKER_VERSION || typeof m.q !== 'string') return E.left(markerError(NOT_OURS));
  if (m.q !== queryFingerprint(query, options.scope)) return E.left(markerError(OTHER_QUERY));
  if (!cursorCodec) return E.right(m.c);
  const cursor = cursorCodec.decode(m.c);
  return E.isRight(cursor) ? cursor : E.left(markerError(NOT_OURS));
}

const isPageSize = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 1 && n <= MAX_PAGE_SIZE;

/**
 * `pageSize` as a query parameter (a string of decimal digits) or a JSON
 * number: an integer from 1 to 1000. Absence is handled by `decodePageSize`.
 */
export const PageSize = new t.Type<number, number, unknown>(
  'pageSize',
  isPageSize,
  (u, c) => {
    const n = typeof u === 'string' && /^[0-9]{1,10}$/.test(u) ? Number(u) : u;
    return isPageSize(n) ? t.success(n) : t.failure(u, c, `must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${JSON.stringify(u) ?? typeof u}`);
  },
  t.identity,
);

/** The page size of a query: 100 when absent; a 400 naming `query.pageSize` when not an integer from 1 to 1000. */
export function decodePageSize(raw: unknown): E.Either<ApiError, number> {
  if (raw === undefined) return E.right(DEFAULT_PAGE_SIZE);
  const r = PageSize.decode(raw);
  if (E.isRight(r)) return r;
  const reason = r.left[0]?.message ?? `must be an integer from 1 to ${MAX_PAGE_SIZE}`;
  return E.left(badRequest('Invalid request query', [{ path: 'query.pageSize', reason }]));
}
