// The request body as the route factory sees it: only its name is read
// there (to pick the stream), the whole body goes unchanged to the pure
// validator (validateReaderConfiguration, validateRecipe), which decodes
// it itself and names every bad field in one 400 ("Invalid reader
// configuration: body.configuration.session ...").
//
// When the name itself is missing or not a non-empty string there is no
// stream to read, so this codec refuses the body at once, with the full
// body codec's field errors, so the client still sees every problem.
import * as t from 'io-ts';
import { Name } from '../core/codecs';
import { isLeft } from 'fp-ts/Either';

export interface NamedBody {
  readonly name: string;
  /** The body as received, still to be validated. */
  readonly body: unknown;
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);

/** Passes a body with a usable name through; otherwise fails with `full`'s errors. */
export function namedBody(name: string, full: t.Decoder<unknown, unknown>): t.Type<NamedBody, unknown, unknown> {
  return new t.Type<NamedBody, unknown, unknown>(
    name,
    (u): u is NamedBody => isObject(u) && typeof u['name'] === 'string' && 'body' in u,
    (u, c) => {
      if (isObject(u) && Name.is(u['name'])) return t.success({ name: u['name'], body: u });
      // Present `full` as the type at this point of the context, so its
      // errors read as the body's own (no intersection member index).
      const last = c[c.length - 1];
      const checked = full.validate(u, last === undefined ? c : [...c.slice(0, -1), { ...last, type: full }]);
      // A body with an unusable name never decodes with `full`; if it ever
      // did, still refuse it rather than read a stream named after nothing.
      return isLeft(checked) ? checked : t.failure(u, c, 'must be an object with a non-empty string name');
    },
    (a) => a.body,
  );
}
