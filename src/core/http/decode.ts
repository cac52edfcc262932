// Decoding of request input (body, query, path parameters) with io-ts. A
// failure becomes a 400 whose `errors[]` name each bad field, so a client can
// fix its request without reading our source.
import * as t from 'io-ts';
import * as E from 'fp-ts/Either';
import { badRequest, type FieldError } from './errors';

const MAX_SHOWN = 80;

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}...` : text;
}

// Inside a union or intersection, io-ts adds an entry per member with its
// index as key; those are not fields, and each member reports its own error.
// Report the whole union once, at the union's own path, by its name.
function toFieldError(root: string, error: t.ValidationError): FieldError {
  const ctx = error.context;
  let end = ctx.length;
  for (let i = 0; i < ctx.length; i++) {
    const type = ctx[i]?.type;
    if (type instanceof t.UnionType) {
      end = i + 1;
      break;
    }
  }
  const keys: string[] = [];
  for (let i = 1; i < end; i++) {
    const parent = ctx[i - 1]?.type;
    if (parent instanceof t.IntersectionType) continue;
    const key = ctx[i]?.key;
    if (key !== undefined && key !== '') keys.push(key);
  }
  const last = ctx[end - 1];
  const value = end === ctx.length ? error.value : last?.actual;
  const reason =
    end === ctx.length && error.message !== undefined
      ? error.message
      : value === undefined
        ? `required (${last?.type.name ?? 'a value'})`
        : `expected ${last?.type.name ?? 'a valid value'}, got ${show(value)}`;
  return { path: [root, ...keys].filter((k) => k !== '').join('.'), reason };
}

export function toFieldErrors(root: string, errors: t.Errors): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const e of errors) {
    const fe = toFieldError(root, e);
    const key = `${fe.path}\u0000${fe.reason}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(fe);
    }
  }
  return out;
}

/**
 * Decodes `input` or throws a 400 ApiError.
 * @param where `body`, `query` or `params`: the root of every error path.
 */
export function decodeInput<A, O>(codec: t.Type<A, O, unknown>, input: unknown, where: string): A {
  const result = codec.decode(input);
  if (E.isRight(result)) return result.right;
  throw badRequest(`Invalid request ${where}`, toFieldErrors(where, result.left));
}
