// Decoding of request input (body, query, path parameters) with io-ts. A
// failure becomes a 400 whose `errors[]` name each bad field, so a client can
// fix its request without reading our source. The field errors are formatted
// by the same function as decode errors of stored events. A body that is
// checked by rules after decoding goes through decodeAndCheck (or salvage and
// refuseAll where the rules need something loaded first), so that one answer
// names its type errors and its rule errors together.
import * as t from 'io-ts';
import * as E from 'fp-ts/Either';
import { formatDecodeErrors } from '../decode-errors';
import { salvage, type RuleInput, type Salvaged } from '../salvage';
import { invalid } from '../given';
import { badRequest, type ApiError } from './errors';

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

/** Refusals naming fields of the body: rules broken (400), references that do not fit (422). */
const FIELD_REFUSALS: ReadonlySet<ApiError['kind']> = new Set(['badRequest', 'unprocessable']);

/**
 * The 400 of a body that did not decode: its type
 * errors, then the field errors `checked` (the rules run on `s.rest`) found
 * on the parts that decoded, 422 ones included (the body is a 400 anyway).
 * A refusal of another kind (404, 409) is not about the body's fields, and
 * a client that fixes them meets it then.
 */
export function refuseAll(s: Salvaged<unknown>, checked: E.Either<ApiError, unknown> | undefined, what = 'request body'): ApiError {
  const ruleErrors = checked !== undefined && E.isLeft(checked) && FIELD_REFUSALS.has(checked.left.kind) ? checked.left.errors : [];
  return invalid(what, [...s.typeErrors, ...ruleErrors.flatMap((e) => s.relocate(e) ?? [])]);
}

/** `input` decoded (at `where`) and checked by `rules`; a 400 names every problem of both kinds at once. */
export function decodeAndCheck<A, R>(
  codec: t.Decoder<unknown, A>,
  input: unknown,
  where: string,
  rules: (a: A) => E.Either<ApiError, R>,
  options: { readonly what?: string; readonly dependsOn?: readonly RuleInput[] } = {},
): E.Either<ApiError, R> {
  const s = salvage(codec, input, where, options.dependsOn);
  if (s.ok) return rules(s.value);
  return E.left(refuseAll(s, s.rest === undefined ? undefined : rules(s.rest), options.what));
}
