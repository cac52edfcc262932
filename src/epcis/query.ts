// GET /epcis/v2/events: the subset of the EPCIS 2.0 REST query parameters
// tagtrail answers (docs/epcis.md, "Query"). A list is one parameter with
// its values separated by `|` (raw or `%7C`): the REST binding's OpenAPI
// declares every list parameter `style: pipeDelimited, explode: false`, so a
// repeated parameter is not a list of EPCIS and is refused. Every bad parameter is named; a
// parameter tagtrail does not answer is refused rather than ignored (a
// filter silently dropped would answer too much). The page token is bound to
// the other parameters (src/core/paging.ts).
import * as t from 'io-ts';
import * as E from 'fp-ts/Either';
import { badRequest, ApiError, type FieldError } from '../core/http/errors';
import { decodePageMarker, encodePageMarker, MAX_PAGE_SIZE } from '../core/paging';
import { QueryReader, type RawQuery } from '../items';
import { epcPatternProblem } from './epc-uri';
import { LocationUri } from './locations';

export const EPCIS_QUERY_PARAMETERS = ['GE_eventTime', 'LT_eventTime', 'EQ_bizLocation', 'EQ_readPoint', 'MATCH_epc', 'EQ_bizStep', 'perPage', 'nextPageToken'] as const;

/** EPCIS's REST binding pages 30 events by default. */
export const DEFAULT_PER_PAGE = 30;

export interface EpcisQuery {
  readonly fromMs: number | undefined;
  readonly toMs: number | undefined;
  readonly bizLocations: ReadonlySet<string> | undefined;
  readonly readPoints: ReadonlySet<string> | undefined;
  readonly epcs: readonly string[] | undefined;
  /** Bare CBV terms (`arriving`). */
  readonly bizSteps: ReadonlySet<string> | undefined;
  readonly perPage: number;
  /** The id the previous page ended with (exclusive). */
  readonly after: string | undefined;
  token(id: string): string;
}

const SCOPE = 'epcis-events';
const Cursor = t.type({ id: t.string });

/** A CBV business step as a bare term, from any of its spellings (bare, GS1 web vocabulary URI, EPCIS 1.x URN); undefined when it is none of them. */
export function bareBizStep(v: string): string | undefined {
  const m = /^(?:https:\/\/ref\.gs1\.org\/cbv\/BizStep-|urn:epcglobal:cbv:bizstep:)?([a-z_]+)$/.exec(v);
  return m?.[1];
}

function list(q: QueryReader, raw: RawQuery, name: string, check: (v: string) => string | undefined): string[] | undefined {
  if (Array.isArray(raw[name])) return q.fail(name, 'must be given once, its values separated by | (EPCIS REST binding: pipeDelimited)');
  const value = q.string(name);
  if (value === undefined) return undefined;
  const values = value.split('|');
  for (const v of values) {
    const problem = check(v);
    if (problem !== undefined) q.fail(name, problem);
  }
  return [...new Set(values)].sort();
}

const uriCheck = (v: string): string | undefined => (E.isRight(LocationUri.decode(v)) ? undefined : `each value (separated by |) must be a URI, got ${JSON.stringify(v).slice(0, 100)}`);

export function parseEpcisQuery(raw: RawQuery): EpcisQuery {
  const q = new QueryReader(raw, EPCIS_QUERY_PARAMETERS);
  const fromMs = q.timeMs('GE_eventTime');
  const toMs = q.timeMs('LT_eventTime');
  if (fromMs !== undefined && toMs !== undefined && fromMs > toMs) q.fail('LT_eventTime', 'must not be before GE_eventTime');
  const bizLocations = list(q, raw, 'EQ_bizLocation', uriCheck);
  const readPoints = list(q, raw, 'EQ_readPoint', uriCheck);
  const epcs = list(q, raw, 'MATCH_epc', epcPatternProblem);
  const bizSteps = list(q, raw, 'EQ_bizStep', (v) => (bareBizStep(v) === undefined ? `each value (separated by |) must be a CBV business step (e.g. arriving), got ${JSON.stringify(v).slice(0, 100)}` : undefined))?.map((v) => bareBizStep(v)!);
  const perPage = perPageOf(q);
  q.throwIfFailed();
  const bound = { fromMs, toMs, bizLocations, readPoints, epcs, bizSteps: bizSteps === undefined ? undefined : [...new Set(bizSteps)].sort() };
  const after = cursorOf(raw['nextPageToken'], bound);
  return {
    fromMs, toMs, epcs, perPage, after,
    bizLocations: bizLocations && new Set(bizLocations),
    readPoints: readPoints && new Set(readPoints),
    bizSteps: bizSteps && new Set(bizSteps),
    token: (id) => encodePageMarker(bound, { id }, { scope: SCOPE }),
  };
}

function perPageOf(q: QueryReader): number {
  const v = q.string('perPage');
  if (v === undefined) return DEFAULT_PER_PAGE;
  const n = /^[0-9]{1,10}$/.test(v) ? Number(v) : NaN;
  if (Number.isSafeInteger(n) && n >= 1 && n <= MAX_PAGE_SIZE) return n;
  q.fail('perPage', `must be an integer from 1 to ${MAX_PAGE_SIZE}, got ${JSON.stringify(v).slice(0, 100)}`);
  return DEFAULT_PER_PAGE;
}

function cursorOf(token: RawQuery[string], bound: Record<string, unknown>): string | undefined {
  if (token === undefined || token === '') return undefined;
  const fail = (reason: string): ApiError => badRequest('Invalid request query', [{ path: 'query.nextPageToken', reason }]);
  if (typeof token !== 'string') throw fail('must be given once');
  const r = decodePageMarker(token, bound, { scope: SCOPE }, Cursor);
  if (E.isLeft(r)) throw fail(r.left.errors.map((e: FieldError) => e.reason).join('; ') || r.left.message);
  return r.right.id;
}
