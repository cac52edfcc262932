// io-ts codecs for environment variables. Each one decodes the trimmed,
// non-empty text of one variable; "unset" and defaults are handled by
// `envVar`, so a codec only says what a well-formed value looks like. Failure
// messages say what was expected; `envVar` appends what was received, because
// only it knows whether the value may be shown (secrets, URL passwords).
import * as t from 'io-ts';
import * as E from 'fp-ts/Either';

export type EnvCodec<A> = t.Decoder<string, A>;

export interface EnvError {
  /** Name of the environment variable, e.g. `PORT`. */
  readonly variable: string;
  /** Why it was refused, e.g. `expected an integer 1-65535, got "abc"`. */
  readonly reason: string;
}

export function formatEnvError(e: EnvError): string {
  return `${e.variable}: ${e.reason}`;
}

function decoder<A>(name: string, validate: (s: string, c: t.Context) => t.Validation<A>): EnvCodec<A> {
  return { name, validate, decode: (s) => validate(s, [{ key: '', type: t.string, actual: s }]) };
}

export function intInRange(min: number, max: number, note = ''): EnvCodec<number> {
  const expected = `expected an integer ${min}-${max}${note}`;
  return decoder(`int(${min}-${max})`, (s, c) => {
    // Digits only: Number() would also accept "1e3", "0x10", " 12 " and "".
    if (!/^\d{1,16}$/.test(s)) return t.failure(s, c, expected);
    const n = Number(s);
    return n >= min && n <= max ? t.success(n) : t.failure(s, c, expected);
  });
}

/** A positive decimal number (e.g. 0.5), for durations that tests shorten below one unit. */
export function positiveNumber(max: number): EnvCodec<number> {
  const expected = `expected a number above 0 and at most ${max}`;
  return decoder(`positive(<=${max})`, (s, c) => {
    if (!/^\d{1,12}(\.\d{1,9})?$/.test(s)) return t.failure(s, c, expected);
    const n = Number(s);
    return n > 0 && n <= max ? t.success(n) : t.failure(s, c, expected);
  });
}

export function oneOf<const L extends readonly string[]>(literals: L): EnvCodec<L[number]> {
  const expected = `expected one of ${literals.join(', ')}`;
  return decoder(`oneOf(${literals.join('|')})`, (s, c) => {
    const lower = s.toLowerCase();
    const hit = literals.find((l) => l === lower);
    return hit === undefined ? t.failure(s, c, expected) : t.success(hit);
  });
}

/**
 * A comma-separated list of known names, case-insensitive, duplicates dropped,
 * returned in the order of `known` so the result does not depend on how the
 * operator happened to write it. `all` stands for every name.
 */
export function listOf<const L extends readonly string[]>(known: L): EnvCodec<ReadonlyArray<L[number]>> {
  const knownText = known.join(', ');
  return decoder(`listOf(${known.join('|')})`, (s, c) => {
    const items = s
      .split(',')
      .map((x) => x.trim().toLowerCase())
      .filter((x) => x !== '');
    if (items.length === 0) return t.failure(s, c, `expected a comma-separated list of ${knownText} (or all)`);
    if (items.includes('all')) return t.success(known);
    const unknown = items.filter((x) => !known.includes(x));
    if (unknown.length > 0) {
      const names = unknown.map((u) => JSON.stringify(u)).join(', ');
      return t.failure(s, c, `unknown ${unknown.length === 1 ? 'entry' : 'entries'} ${names} (known: ${knownText}, or all)`);
    }
    return t.success(known.filter((k) => items.includes(k)));
  });
}

/** A comma-separated list of integers in min..max, duplicates dropped, ascending. */
export function intList(min: number, max: number): EnvCodec<readonly number[]> {
  const expected = `expected a comma-separated list of integers ${min}-${max}`;
  const one = intInRange(min, max);
  return decoder(`intList(${min}-${max})`, (s, c) => {
    const items = s.split(',').map((x) => x.trim());
    const values = items.map((x) => one.decode(x));
    if (values.some(E.isLeft) || items.length === 0) return t.failure(s, c, expected);
    return t.success([...new Set(values.flatMap((v) => (E.isRight(v) ? [v.right] : [])))].sort((a, b) => a - b));
  });
}

export function urlWithScheme(schemes: readonly string[]): EnvCodec<string> {
  const expected = `expected a URL starting with ${schemes.map((s) => `${s}://`).join(' or ')}`;
  return decoder(`url(${schemes.join('|')})`, (s, c) => {
    let url: URL;
    try {
      url = new URL(s);
    } catch {
      return t.failure(s, c, expected);
    }
    const scheme = url.protocol.replace(/:$/, '');
    return schemes.includes(scheme) && url.hostname !== '' ? t.success(s) : t.failure(s, c, expected);
  });
}

/**
 * An EventStoreDB/KurrentDB connection string: `esdb://` or `esdb+discover://`,
 * optional credentials, then one host or a comma-separated list of them (the
 * gossip seeds of a cluster: `esdb+discover://es1:2113,es2:2113,es3:2113`),
 * each with an optional port, then an optional path and query. The WHATWG
 * URL parser refuses the list form, so it is checked here.
 */
export const esdbConnectionString: EnvCodec<string> = decoder('esdb', (s, c) => {
  const expected = 'expected a URL starting with esdb:// or esdb+discover:// with one host or a comma-separated list of host:port';
  const m = /^esdb(\+discover)?:\/\/(?:[^@/?#]*@)?([^@/?#]+)(\/[^?#]*)?(\?[^#]*)?$/.exec(s);
  const hosts = m?.[2]?.split(',') ?? [];
  const hostOk = (h: string): boolean => /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(:\d{1,5})?$/.test(h) && !h.startsWith('-');
  return hosts.length > 0 && hosts.every(hostOk) ? t.success(s) : t.failure(s, c, expected);
});

/** A host name or IP address literal, without scheme or port. */
export const hostName: EnvCodec<string> = decoder('host', (s, c) =>
  /^[A-Za-z0-9._:-]+$/.test(s) && !s.startsWith('-')
    ? t.success(s)
    : t.failure(s, c, 'expected a host name or IP address (no scheme, no port)'),
);

/**
 * An absolute URL path prefix, normalised without its trailing slash, so that
 * `/` (mount at the root) becomes the empty prefix.
 */
export const urlPathPrefix: EnvCodec<string> = decoder('urlPath', (s, c) =>
  /^\/([A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*)?\/?$/.test(s)
    ? t.success(s.replace(/\/+$/, ''))
    : t.failure(s, c, 'expected a URL path such as /itemsense (starting with /, segments of letters, digits, . _ ~ -)'),
);

export const nonEmptyText: EnvCodec<string> = decoder('text', (s) => t.success(s));

/** Text of at least `min` characters (keys). */
export function textOfAtLeast(min: number): EnvCodec<string> {
  return decoder(`text(>=${min})`, (s, c) => (s.length >= min ? t.success(s) : t.failure(s, c, `expected at least ${min} characters`)));
}

/** How a received value may appear in an error message. */
export type Display = 'plain' | 'secret' | 'url';

function show(raw: string, display: Display): string {
  if (display === 'secret') return `a value of ${raw.length} characters`;
  // A URL may carry a password (amqp://user:pass@host); never log it.
  const shown = display === 'url' ? raw.replace(/\/\/([^/@:]*):[^/@]*@/, '//$1:***@') : raw;
  return JSON.stringify(shown);
}

/**
 * Decodes one variable. Unset and blank values fall back to `fallback`
 * (blank too, because `FOO=` in a compose file or shell usually means "not
 * set", and an empty port or URL is never a meaningful value).
 */
export function envVar<A, D>(
  env: NodeJS.ProcessEnv,
  variable: string,
  codec: EnvCodec<A>,
  fallback: D,
  display: Display = 'plain',
): E.Either<EnvError, A | D> {
  const raw = env[variable];
  if (raw === undefined || raw.trim() === '') return E.right(fallback);
  const trimmed = raw.trim();
  const result = codec.decode(trimmed);
  if (E.isRight(result)) return E.right(result.right);
  const expected = result.left[0]?.message ?? `invalid value for ${codec.name}`;
  return E.left({ variable, reason: `${expected}, got ${show(trimmed, display)}` });
}
