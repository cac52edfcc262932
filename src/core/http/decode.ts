// Decoding of request input (body, query, path parameters) with io-ts. A
// failure becomes a 400 whose `errors[]` name each bad field, so a client can
// fix its request without reading our source. The field errors are formatted
// by the same function as decode errors of stored events.
import * as t from 'io-ts';
import * as E from 'fp-ts/Either';
import { formatDecodeErrors } from '../decode-errors';
import { badRequest } from './errors';

/**
 * Decodes `input` or throws a 400 ApiError.
 * @param where `body`, `query` or `params`: the root of every error path.
 */
export function decodeInput<A, O>(codec: t.Type<A, O, unknown>, input: unknown, where: string): A {
  const result = codec.decode(input);
  if (E.isRight(result)) return result.right;
  throw badRequest(`Invalid request ${where}`, formatDecodeErrors(result.left, where));
}

/**
 * Throws a 400 naming each field of `body` that is not in `known`. For
 * bodies whose fields narrow what a request reaches (filters, targets): a
 * misspelt field would otherwise widen it to everything, silently.
 * @param what e.g. `filter`: the reason reads "is not a filter field (known: ...)".
 */
export function refuseUnknownFields(body: unknown, known: readonly string[], what: string): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
  const unknown = Object.keys(body).filter((k) => !known.includes(k));
  if (unknown.length === 0) return;
  throw badRequest('Invalid request body', unknown.map((k) => ({ path: `body.${k}`, reason: `is not a ${what} field (known: ${known.join(', ')})` })));
}
