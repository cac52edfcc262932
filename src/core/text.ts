// What a string must be to be stored and addressed: text (well-formed
// Unicode, no control characters) and, for names and ids, also bounded and
// usable as a URL path segment. One definition for bodies, path parameters
// and codecs, so a name accepted in a body can always be addressed later.

/** Longest name or id, in UTF-16 code units (what a JavaScript string's length counts). */
export const MAX_NAME_LENGTH = 256;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// Control characters (C0, DEL, C1) other than tab, line feed, carriage return.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\u0000-\u001F\u007F-\u009F]/;

const codePoint = (c: string): string => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * No control character but tab and line breaks, and no surrogate at all: the
 * common case (every EPC and timestamp of a tag report), decided by one pass
 * over the code units instead of two regular expressions.
 */
function plainText(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 ? c !== 9 && c !== 10 && c !== 13 : (c >= 0x7f && c <= 0x9f) || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}

/** Why a string cannot be stored as text, or undefined when it can. */
export function textProblem(s: string): string | undefined {
  if (plainText(s)) return undefined;
  if (LONE_SURROGATE.test(s)) return 'must be valid Unicode (it holds a lone surrogate)';
  const control = CONTROL.exec(s);
  if (control) return `must not contain control characters (${codePoint(control[0])} at ${control.index})`;
  return undefined;
}

/** Longest query value: filters are names or lists of names, page markers a few hundred characters. */
export const MAX_QUERY_VALUE_LENGTH = 2048;

/** Why a query value cannot be one, or undefined when it can: one line of text, bounded. */
export function queryValueProblem(s: string): string | undefined {
  if (s.length > MAX_QUERY_VALUE_LENGTH) return `must be at most ${MAX_QUERY_VALUE_LENGTH} characters, got ${s.length}`;
  const control = ANY_CONTROL.exec(s);
  if (control) return `must not contain control characters (${codePoint(control[0])} at ${control.index})`;
  return textProblem(s);
}

/** Why a string cannot be a name or id, or undefined when it can. */
export function nameProblem(s: string): string | undefined {
  if (s.trim().length === 0) return 'must not be empty';
  if (s.length > MAX_NAME_LENGTH) return `must be at most ${MAX_NAME_LENGTH} characters, got ${s.length}`;
  if (s === '.' || s === '..') return `must not be "${s}" (no URL path can address it)`;
  const control = ANY_CONTROL.exec(s);
  if (control) return `must not contain control characters (${codePoint(control[0])} at ${control.index})`;
  return textProblem(s);
}

// Characters a proxy or router may take apart even percent-encoded (Apache refuses %2F by default, %5C is
// turned into "/" by some), or that end a path (?, #), or start an escape (%).
const PATH_UNSAFE = /[/\\?#%]/;

/**
 * Why a string cannot name a resource that clients address in a URL path
 * (facilities, zone maps, reader definitions and configurations, recipes),
 * or undefined when it can: a name, without characters that do not survive
 * every proxy between a client and tagtrail, and without surrounding blanks
 * (invisible in every listing). Spaces inside and any letters are fine.
 */
export function resourceNameProblem(s: string): string | undefined {
  const problem = nameProblem(s);
  if (problem !== undefined) return problem;
  const unsafe = PATH_UNSAFE.exec(s);
  if (unsafe) return `must not contain "${unsafe[0]}" (not every proxy passes it in a URL path, even encoded), at ${unsafe.index}`;
  if (s.trim() !== s) return 'must not start or end with blanks';
  return undefined;
}
