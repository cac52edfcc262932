// Every problem of a body in one answer. When a body does not decode, the
// rules still run on the parts of it that did: the parts that did not decode
// are cut away (each as little as the codec allows: a field it may go
// without, else the object holding it, and always a whole array row, so a
// row is checked whole or not at all), the rest is decoded and checked, and
// each rule error found there is reported at its path in the body as sent.
// A rule error about a part that was cut, or about something holding a cut
// part (an outline whose point was cut, the list a row was cut from), is
// dropped: the rule saw a body the client did not send. So is one on a field
// whose rule reads a field that was cut (`dependsOn`).
import * as t from 'io-ts';
import { isRight } from 'fp-ts/Either';
import { formatDecodeErrors, valueKeys, type FieldError } from './decode-errors';

type Keys = readonly string[];

/** Rule errors at or under `field` are not reported when `on` (paths below the body's root) did not decode. */
export interface RuleInput {
  readonly field: string;
  readonly on: string;
}

/** A body that did not decode, and the most of it that did. */
export interface Salvaged<A> {
  readonly ok: false;
  /** The type errors of the body as sent (paths under `where`). */
  readonly typeErrors: FieldError[];
  /** The body decoded, without its cut parts; undefined when not enough of it decodes (its root had to go). */
  readonly rest: A | undefined;
  /** A rule error found on `rest`, at its path in the body as sent; undefined when it is not to be reported. */
  relocate(e: FieldError): FieldError | undefined;
}

export type Salvage<A> = { readonly ok: true; readonly value: A } | Salvaged<A>;

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);
const startsWith = (keys: Keys, prefix: Keys): boolean => prefix.length <= keys.length && prefix.every((k, i) => keys[i] === k);
const joined = (keys: Keys): string => keys.join('\u0000');

/** The original indices of the rows kept in each array from which rows were cut, by the array's keys in the cut body. */
type RowOrigins = Map<string, number[]>;

/** `input` without the values at `cuts`; `origins` learns which rows each shortened array kept. */
function cut(value: unknown, cuts: readonly Keys[], at: Keys, origins: RowOrigins): unknown {
  const below = (key: string): Keys[] => cuts.filter((c) => c[at.length] === key);
  if (Array.isArray(value)) {
    const kept: unknown[] = [];
    const from: number[] = [];
    value.forEach((v, i) => {
      const inside = below(String(i));
      if (inside.some((c) => c.length === at.length + 1)) return;
      from.push(i);
      kept.push(inside.length === 0 ? v : cut(v, inside, [...at, String(kept.length)], origins));
    });
    if (from.length !== value.length) origins.set(joined(at), from);
    return kept;
  }
  if (!isObject(value)) return value;
  const entries: Array<[string, unknown]> = [];
  for (const [key, v] of Object.entries(value)) {
    const inside = below(key);
    if (inside.some((c) => c.length === at.length + 1)) continue;
    entries.push([key, inside.length === 0 ? v : cut(v, inside, [...at, key], origins)]);
  }
  // fromEntries: a key such as `constructor` stays an own property.
  return Object.fromEntries(entries);
}

/** Keys in the cut body -> keys in the body as sent (row indices restored). */
function original(keys: Keys, origins: RowOrigins): string[] {
  return keys.map((key, i) => {
    const rows = origins.get(joined(keys.slice(0, i)));
    const row = rows === undefined ? undefined : rows[Number(key)];
    return row === undefined ? key : String(row);
  });
}

/** A cut inside an array row cuts the whole row (the outermost one). */
function wholeRow(keys: Keys, input: unknown): string[] {
  let value = input;
  for (let i = 0; i < keys.length; i++) {
    if (Array.isArray(value)) return keys.slice(0, i + 1);
    value = isObject(value) ? value[keys[i] as string] : undefined;
  }
  return [...keys];
}

/** Rounds of cutting before giving up: each round adds a cut or moves one up, so a body of sane depth needs few. */
const MAX_ROUNDS = 64;

function findCuts<A>(codec: t.Decoder<unknown, A>, input: unknown): { cuts: Keys[]; rest: A | undefined; origins: RowOrigins } {
  let cuts: Keys[] = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const origins: RowOrigins = new Map();
    const result = codec.decode(cut(input, cuts, [], origins));
    if (isRight(result)) return { cuts, rest: result.right, origins };
    const before = cuts;
    for (const error of result.left) {
      const keys = wholeRow(original(valueKeys(error), origins), input);
      // At or above an earlier cut: going without that part is not allowed; go without its holder.
      const next = before.some((c) => startsWith(c, keys)) ? keys.slice(0, -1) : keys;
      if (next.length === 0) return { cuts, rest: undefined, origins };
      if (cuts.some((c) => startsWith(next, c))) continue; // already cut
      cuts = [...cuts.filter((c) => !startsWith(c, next)), next];
    }
  }
  return { cuts, rest: undefined, origins: new Map() };
}

/**
 * Decodes `input`; when it does not decode, also the most of it that does.
 * @param where `body`: the root of every error path.
 */
export function salvage<A>(codec: t.Decoder<unknown, A>, input: unknown, where: string, dependsOn: readonly RuleInput[] = []): Salvage<A> {
  const whole = codec.decode(input);
  if (isRight(whole)) return { ok: true, value: whole.right };
  const { cuts, rest, origins } = findCuts(codec, input);
  const touched = (keys: Keys): boolean => cuts.some((c) => startsWith(c, keys) || startsWith(keys, c));
  const unread = dependsOn.filter((d) => touched(d.on.split('.'))).map((d) => d.field.split('.'));
  return {
    ok: false,
    typeErrors: formatDecodeErrors(whole.left, where),
    rest,
    relocate: (e) => {
      const [root, ...inRest] = e.path.split('.');
      if (root !== where) return undefined;
      const keys = original(inRest, origins);
      if (touched(keys) || unread.some((f) => startsWith(keys, f))) return undefined;
      return { path: [where, ...keys].join('.'), reason: e.reason };
    },
  };
}
