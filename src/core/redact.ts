// What a log line must never carry: secrets a client sent. Applied by the
// logger to every line (stdout and the retained log file, hence the log
// export too) and by the request log to paths.

const SHOWN = '***';

/**
 * Field names whose values are secrets wherever they appear in a log line:
 * credentials (Authorization, Cookie), passwords, tokens, agent secrets, the
 * EPCIS repositories' bearer tokens and the SNMP community. `tokenId`,
 * `tokenSha256` and the write-only fields' `...Set` flags are not secrets and
 * do not match.
 */
const SECRET_FIELD =
  /^(authorization|proxy-authorization|cookie|set-cookie|password|passwordhash|newpassword|token|bearertoken|secret|agentsecret|apikey|api_key|community|communityname|credential|credentials|privatekey)$/i;

export const isSecretField = (name: string): boolean => SECRET_FIELD.test(name);

// Path segments that are secrets: the token of `validateToken/{token}`.
const SECRET_IN_PATH = /(\/validateToken\/)[^/]+/gi;

/** The path with secrets in it replaced by `***`. */
export const redactPath = (path: string): string => path.replace(SECRET_IN_PATH, `$1${SHOWN}`);

const MAX_DEPTH = 6;

/**
 * A copy of a log field value with the values of secret-named fields (at any
 * depth, in objects and arrays) replaced by `***`. Errors, dates and other
 * class instances are left to the logger's own conversion.
 */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = isSecretField(k) && v !== null && v !== undefined ? SHOWN : redactSecrets(v, depth + 1);
  return out;
}
