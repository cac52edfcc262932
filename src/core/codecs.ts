// Small io-ts codecs shared by the slices. Each failure carries its own
// message, which formatDecodeErrors puts into the field's `reason`, so a 400
// tells the client what a valid value looks like rather than an io-ts type
// name. Unbranded on purpose: values built in code and tests need no casts.
import * as t from 'io-ts';
import { MAX_NAME_LENGTH, nameProblem, resourceNameProblem } from './text';

// An echoed value is cut: a 100k-character value must not come back whole in every error.
const MAX_ECHO = 80;

function echo(u: unknown): string {
  const text = JSON.stringify(u) ?? typeof u;
  return text.length > MAX_ECHO ? `${text.slice(0, MAX_ECHO)}… (${text.length} characters)` : text;
}

/** The `reason` of a failed field: "is required" when absent, else what was wrong. */
export function failureReason(name: string, reason: string, u: unknown): string {
  return u === undefined ? `is required (${name})` : `${reason}, got ${echo(u)}`;
}

const isNumber = (u: unknown): u is number => typeof u === 'number' && Number.isFinite(u);

function refined<A>(name: string, is: (u: unknown) => u is A, reason: string): t.Type<A, A, unknown> {
  return new t.Type<A, A, unknown>(
    name,
    is,
    (u, c) => (is(u) ? t.success(u) : t.failure(u, c, failureReason(name, reason, u))),
    t.identity,
  );
}

export const NonEmptyString = refined(
  'non-empty string',
  (u): u is string => typeof u === 'string' && u.trim().length > 0,
  'must be a non-empty string',
);

/** A string codec whose failures are `problemOf`'s reason. */
function checkedString(name: string, problemOf: (s: string) => string | undefined): t.Type<string, string, unknown> {
  return new t.Type<string, string, unknown>(
    name,
    (u): u is string => typeof u === 'string' && problemOf(u) === undefined,
    (u, c) => {
      if (typeof u !== 'string') return t.failure(u, c, u === undefined ? 'is required (string)' : 'must be a string');
      const problem = problemOf(u);
      return problem === undefined ? t.success(u) : t.failure(u, c, problem);
    },
    t.identity,
  );
}

/**
 * The name or id of something a client creates and later addresses in a URL
 * path: non-empty, at most MAX_NAME_LENGTH characters, no control characters
 * or lone surrogates, not `.` or `..`. Each failure says which rule failed.
 */
export const Name = checkedString('name', nameProblem);

/**
 * The name of a resource clients address by it in a URL path: a Name that
 * also passes every proxy on the way (resourceNameProblem). Only what is
 * written is checked: a resource stored before keeps its name.
 */
export const ResourceName = checkedString('resource name', resourceNameProblem);

/** JSON Schema of a Name, for the OpenAPI document. */
export const nameSchema = (description?: string): Record<string, unknown> => ({
  type: 'string',
  minLength: 1,
  maxLength: MAX_NAME_LENGTH,
  ...(description ? { description } : {}),
});

export const Integer = refined(
  'integer',
  (u): u is number => typeof u === 'number' && Number.isSafeInteger(u),
  'must be an integer',
);

export const NonNegativeInteger = refined(
  'integer >= 0',
  (u): u is number => typeof u === 'number' && Number.isSafeInteger(u) && u >= 0,
  'must be an integer >= 0',
);

export const PositiveInteger = refined(
  'integer >= 1',
  (u): u is number => typeof u === 'number' && Number.isSafeInteger(u) && u >= 1,
  'must be an integer >= 1',
);

/** A finite number (JSON has no NaN/Infinity, but hand-built values might). */
export const FiniteNumber = refined(
  'number',
  (u): u is number => typeof u === 'number' && Number.isFinite(u),
  'must be a number',
);

// Full ISO 8601 date-time with zone, as every timestamp of the interface is.
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** An ISO 8601 UTC/offset timestamp kept as the string (what the interface returns). */
export const IsoTimestamp = refined(
  'ISO 8601 timestamp',
  (u): u is string => typeof u === 'string' && ISO_TIMESTAMP.test(u) && !Number.isNaN(Date.parse(u)),
  'must be an ISO 8601 timestamp',
);

/**
 * A positive integer written in decimal without sign or leading zeros: path
 * parameters (`/antennaConfiguration/{id}`), query values (`replacementId`)
 * and JSON object keys (`antennaZones`) carry integers as strings.
 */
export const IntegerFromString = new t.Type<number, string, unknown>(
  'IntegerFromString',
  (u): u is number => typeof u === 'number' && Number.isSafeInteger(u),
  (u, c) => {
    const n = typeof u === 'string' && /^(0|[1-9]\d*)$/.test(u) ? Number(u) : NaN;
    return Number.isSafeInteger(n) ? t.success(n) : t.failure(u, c, failureReason('integer', 'must be a decimal integer', u));
  },
  (n) => String(n),
);

/**
 * `X | null`, the shape of every optional field the interface returns as
 * null. Not `t.union([X, t.null])`: a union reports a bad object once per
 * member, and the null member's "expected null" at the field itself would
 * sit beside the real error inside it.
 */
export function nullable<C extends t.Mixed>(codec: C): t.Type<t.TypeOf<C> | null, t.OutputOf<C> | null, unknown> {
  return new t.Type<t.TypeOf<C> | null, t.OutputOf<C> | null, unknown>(
    `${codec.name} | null`,
    (u): u is t.TypeOf<C> | null => u === null || codec.is(u),
    (u, c) => {
      if (u === null) return t.success(null);
      // Validate as if the field were of the inner type, so that a union
      // inside keeps its member indexes out of error paths.
      const last = c[c.length - 1];
      return codec.validate(u, last ? [...c.slice(0, -1), { ...last, type: codec }] : c);
    },
    (a) => (a === null ? null : (codec.encode(a) as t.OutputOf<C>)),
  );
}

export const NonNegativeNumber = refined('number >= 0', (u): u is number => isNumber(u) && u >= 0, 'must be a number >= 0');
export const PositiveNumber = refined('number > 0', (u): u is number => isNumber(u) && u > 0, 'must be a number > 0');
export const HexString = refined(
  'hexadecimal string',
  (u): u is string => typeof u === 'string' && /^[0-9A-Fa-f]+$/.test(u),
  'must be a non-empty hexadecimal string',
);

/**
 * One of a few literal values. A `t.union` of literals would make
 * formatDecodeErrors report only its first member ("expected 0, got 7").
 */
export function oneOf<V extends string | number>(values: readonly V[], name: string): t.Type<V, V, unknown> {
  return refined(name, (u): u is V => values.some((v) => v === u), `must be ${name}`);
}

/** Exhaustiveness check for switches over closed unions. */
export function assertNever(x: never): never {
  throw new Error(`unexpected value ${JSON.stringify(x)}`);
}
