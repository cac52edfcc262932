// What a decoded body really gave (null and undefined fields dropped), and
// the 400 that names the first problem of a body: shared by the slices that
// validate a body field by field (reader configurations, recipes).
import { badRequest, type ApiError, type FieldError } from './http/errors';

/** The decoded body with null and undefined fields dropped: what remains was really given. */
export type Given<T> = { [K in keyof T]?: Exclude<T[K], null | undefined> };

export function given<T extends object>(o: T): Given<T> {
  // The one cast: filtering entries loses the key-value link that the
  // mapped type restores.
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as Given<T>;
}

/** A 400 whose message names the first problem, for clients that only log `message`. */
export function invalid(what: string, errors: readonly FieldError[]): ApiError {
  const first = errors[0];
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  const detail = first === undefined ? '' : `: ${first.path} ${first.reason}${more}`;
  return badRequest(`Invalid ${what}${detail}`, errors);
}
