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
