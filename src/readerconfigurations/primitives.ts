// Small io-ts codecs and helpers shared by the reader configuration and
// recipe slices. Each codec failure carries its own message, which
// formatDecodeErrors puts into the field's `reason`, so a 400 tells the
// client what a valid value looks like rather than an io-ts type name.
import * as t from 'io-ts';
import { badRequest, type ApiError, type FieldError } from '../core/http/errors';

/** "is required (what)" when absent, else what was wrong and the value received. */
export function failureReason(name: string, reason: string, u: unknown): string {
  return u === undefined ? `is required (${name})` : `${reason}, got ${JSON.stringify(u) ?? typeof u}`;
}

function refined<A>(name: string, is: (u: unknown) => u is A, reason: string): t.Type<A, A, unknown> {
  return new t.Type<A, A, unknown>(
    name,
    is,
    (u, c) => (is(u) ? t.success(u) : t.failure(u, c, failureReason(name, reason, u))),
    t.identity,
  );
}

const isNumber = (u: unknown): u is number => typeof u === 'number' && Number.isFinite(u);

export const NonEmptyString = refined(
  'non-empty string',
  (u): u is string => typeof u === 'string' && u.trim().length > 0,
  'must be a non-empty string',
);
export const Integer = refined('integer', (u): u is number => Number.isSafeInteger(u), 'must be an integer');
export const NonNegativeInteger = refined(
  'integer >= 0',
  (u): u is number => Number.isSafeInteger(u) && (u as number) >= 0,
  'must be an integer >= 0',
);
export const PositiveInteger = refined(
  'integer >= 1',
  (u): u is number => Number.isSafeInteger(u) && (u as number) >= 1,
  'must be an integer >= 1',
);
export const FiniteNumber = refined('number', isNumber, 'must be a number');
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

/**
 * `X | null`. Every optional field of this interface is returned as null
 * when unset, so a client that reads a document and sends it back sends
 * nulls: null therefore means "absent". Unlike `t.union([c, t.null])`, a
 * bad value reports only the inner codec's errors, not also "expected null".
 */
export function nullable<C extends t.Mixed>(codec: C): t.Type<t.TypeOf<C> | null, t.OutputOf<C> | null, unknown> {
  return new t.Type<t.TypeOf<C> | null, t.OutputOf<C> | null, unknown>(
    `${codec.name} | null`,
    (u): u is t.TypeOf<C> | null => u === null || codec.is(u),
    (u, c) => {
      if (u === null) return t.success(null);
      // Present the inner codec as the field's type: formatDecodeErrors
      // drops intersection and union member indices from a path only when
      // the entry before them is that intersection or union.
      const last = c[c.length - 1];
      return codec.validate(u, last === undefined ? c : [...c.slice(0, -1), { ...last, type: codec }]);
    },
    (a) => (a === null ? null : (codec.encode(a) as t.OutputOf<C>)),
  );
}

/** The decoded body with null and undefined fields dropped: what remains was really given. */
export type Given<T> = { [K in keyof T]?: Exclude<T[K], null | undefined> };

export function given<T extends object>(o: T): Given<T> {
  // The one cast of the slice: filtering entries loses the key-value link
  // that the mapped type restores.
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as Given<T>;
}

/** A 400 whose message names the first problem, for clients that only log `message`. */
export function invalid(what: string, errors: readonly FieldError[]): ApiError {
  const first = errors[0];
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  const detail = first === undefined ? '' : `: ${first.path} ${first.reason}${more}`;
  return badRequest(`Invalid ${what}${detail}`, errors);
}

/** Exhaustiveness check for switches over closed unions. */
export function assertNever(x: never): never {
  throw new Error(`unexpected value ${JSON.stringify(x)}`);
}
