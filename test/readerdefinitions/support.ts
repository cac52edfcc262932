// Helpers for the configuration slices' unit tests: decode a body the way
// the HTTP layer does (decodeInput) and unwrap Either results.
import { expect } from 'chai';
import type * as t from 'io-ts';
import { isLeft, isRight, type Either } from 'fp-ts/Either';
import { ApiError } from '../../src/core/http/errors';
import { decodeInput } from '../../src/core/http/decode';

export function decoded<A, O>(codec: t.Type<A, O, unknown>, body: unknown): A {
  return decodeInput(codec, body, 'body');
}

/** The 400 a body gets from decodeInput; fails the test if it decodes. */
export function refused<A, O>(codec: t.Type<A, O, unknown>, body: unknown): ApiError {
  try {
    decodeInput(codec, body, 'body');
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  return expect.fail(`expected ${JSON.stringify(body)} to be refused`);
}

export function rightOf<E, A>(result: Either<E, A>): A {
  if (isRight(result)) return result.right;
  return expect.fail(`expected Right, got Left ${JSON.stringify(result.left)}`);
}

export function leftOf<A>(result: Either<ApiError, A>): ApiError {
  if (isLeft(result)) return result.left;
  return expect.fail(`expected Left, got Right ${JSON.stringify(result.right)}`);
}

/** The paths of a refusal's field errors, for "names exactly these fields" checks. */
export const paths = (error: ApiError): string[] => error.errors.map((e) => e.path);
