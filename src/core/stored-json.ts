// The one way back in for JSON that tagtrail stored itself (Redis read
// models, files). A value written by another version, by a hand edit or by
// a bug must be named where it is read, not travel on as a wrong type: every
// such read decodes through an io-ts codec here. The codecs check in place
// (t.type returns the parsed object itself when every field is valid), so a
// hot read pays the check, not a copy.
import type * as t from 'io-ts';
import { isRight, right } from 'fp-ts/Either';
import { formatDecodeErrors } from './decode-errors';

/** A stored value that is not JSON or does not have the shape this version reads. */
export class StoredValueError extends Error {
  override readonly name = 'StoredValueError';
}

type Parsed<A> = { ok: true; value: A } | { ok: false; why: string };

function parse<A>(codec: t.Decoder<unknown, A>, raw: string): Parsed<A> {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    return { ok: false, why: `is not JSON (${err instanceof Error ? err.message : String(err)})` };
  }
  const r = codec.decode(json);
  if (isRight(r)) return { ok: true, value: r.right };
  const reasons = formatDecodeErrors(r.left).map((e) => (e.path ? `${e.path}: ${e.reason}` : e.reason));
  return { ok: false, why: `does not decode: ${reasons.join('; ')}` };
}

/** `raw` decoded by `codec`; a StoredValueError naming `what` ("jobs read model: job j1") and the reason otherwise. */
export function decodeStored<A>(codec: t.Decoder<unknown, A>, raw: string, what: string): A {
  const p = parse(codec, raw);
  if (p.ok) return p.value;
  throw new StoredValueError(`${what} ${p.why}`);
}

/** As decodeStored, where no value (a Redis miss: null or undefined) is an answer: undefined. */
export function decodeStoredIfAny<A>(codec: t.Decoder<unknown, A>, raw: string | null | undefined, what: string): A | undefined {
  return raw == null ? undefined : decodeStored(codec, raw, what);
}

/**
 * Only for a value the code can do without and that its next write replaces
 * (a cache, a marker): a corrupt or old-version one counts as absent.
 */
export function decodeStoredOrAbsent<A>(codec: t.Decoder<unknown, A>, raw: string | null | undefined): A | undefined {
  if (raw == null) return undefined;
  const p = parse(codec, raw);
  return p.ok ? p.value : undefined;
}

/**
 * `codec` with a hand-written guard in front, for values read by the
 * thousand (a page of items): what `is` accepts passes at once, anything else
 * goes through `codec`, which refuses it with its reasons. `is` must accept
 * exactly what `codec` does; a test compares both on generated values.
 */
export function withFastCheck<A>(codec: t.Decoder<unknown, A>, is: (u: unknown) => u is A): t.Decoder<unknown, A> {
  return {
    name: codec.name,
    validate: (u, c) => (is(u) ? right(u) : codec.validate(u, c)),
    decode: (u) => (is(u) ? right(u) : codec.decode(u)),
  };
}
