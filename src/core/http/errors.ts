// The one error type HTTP handlers throw on purpose. The error middleware
// turns it into `{message, errors: [{path, reason}]}` with its status; any
// other error becomes a 500 whose details go to the log, not to the client.

import type { FieldError } from '../decode-errors';

/** `{path, reason}`, e.g. `{path: 'body.recipeName', reason: 'is required (string)'}`. */
export type { FieldError };

/** The statuses this interface uses, each with one meaning everywhere. */
export const API_ERROR_STATUSES = {
  badRequest: 400, // input does not decode (wrong type, missing field, bad query)
  unauthorized: 401, // no or unknown credentials
  forbidden: 403, // known user, role does not allow it
  notFound: 404, // the named resource does not exist
  conflict: 409, // already exists / in use / concurrent change
  preconditionFailed: 412, // an explicit expected revision or state did not hold
  payloadTooLarge: 413, // the body exceeds the route's limit (or what the event store takes in one append)
  unsupportedMediaType: 415, // a body that is not JSON on a route that reads JSON
  unprocessable: 422, // well-formed but refused by a domain rule
  tooManyRequests: 429, // held back (failed-login throttling); Retry-After says how long
  unavailable: 503, // a dependency is down or a read model is rebuilding: retry after Retry-After
} as const;

export type ApiErrorKind = keyof typeof API_ERROR_STATUSES;
export type ApiErrorStatus = (typeof API_ERROR_STATUSES)[ApiErrorKind];

export class ApiError extends Error {
  readonly status: ApiErrorStatus;

  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly errors: readonly FieldError[] = [],
    /** Sent as `Retry-After` (seconds): the client may try again then. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = API_ERROR_STATUSES[kind];
  }
}

export const badRequest = (message: string, errors: readonly FieldError[] = []): ApiError =>
  new ApiError('badRequest', message, errors);
export const unauthorized = (message = 'Authentication required'): ApiError => new ApiError('unauthorized', message);
export const forbidden = (message = 'Forbidden'): ApiError => new ApiError('forbidden', message);
export const notFound = (message: string): ApiError => new ApiError('notFound', message);
export const conflict = (message: string, errors: readonly FieldError[] = []): ApiError =>
  new ApiError('conflict', message, errors);
export const preconditionFailed = (message: string): ApiError => new ApiError('preconditionFailed', message);
export const payloadTooLarge = (message: string): ApiError => new ApiError('payloadTooLarge', message);
export const unsupportedMediaType = (message: string): ApiError => new ApiError('unsupportedMediaType', message);
export const unprocessable = (message: string, errors: readonly FieldError[] = []): ApiError =>
  new ApiError('unprocessable', message, errors);
export const tooManyRequests = (message: string): ApiError => new ApiError('tooManyRequests', message);
/** 503 with `Retry-After`: nothing is wrong with the request, the service cannot answer it truthfully yet. */
export const unavailable = (message: string, retryAfterSeconds: number, errors: readonly FieldError[] = []): ApiError =>
  new ApiError('unavailable', message, errors, retryAfterSeconds);
