// Assertions shared by the reader configuration and recipe tests.
import { expect } from 'chai';
import { isLeft, isRight, type Either } from 'fp-ts/Either';
import type { ApiError } from '../../src/core/http/errors';

/** The Right value, failing the test with the error's field list otherwise. */
export function expectValid<A>(result: Either<ApiError, A>): A {
  if (isRight(result)) return result.right;
  throw new Error(`expected valid, got 400: ${JSON.stringify(result.left.errors)}`);
}

/** A 400 with an error at exactly `path` (whose reason matches `reason` if given). */
export function expectInvalid<A>(result: Either<ApiError, A>, path: string, reason?: RegExp): ApiError {
  if (!isLeft(result)) throw new Error(`expected a 400 at ${path}, got valid: ${JSON.stringify(result.right)}`);
  const error = result.left;
  expect(error.status).to.equal(400);
  expect(error.kind).to.equal('badRequest');
  const paths = error.errors.map((e) => e.path);
  expect(paths, JSON.stringify(error.errors)).to.include(path);
  if (reason !== undefined) {
    const reasons = error.errors.filter((e) => e.path === path).map((e) => e.reason);
    expect(reasons.some((r) => reason.test(r)), `reasons at ${path}: ${JSON.stringify(reasons)}`).to.equal(true);
  }
  expect(error.message).to.match(/^Invalid /);
  return error;
}

/** The paths of a 400's errors, for tests that check nothing else is reported. */
export function errorPaths<A>(result: Either<ApiError, A>): string[] {
  if (!isLeft(result)) throw new Error(`expected a 400, got valid: ${JSON.stringify(result.right)}`);
  return result.left.errors.map((e) => e.path);
}
