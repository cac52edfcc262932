// Parsing of the `Authorization` header. Two schemes (docs/interface.md, Authentication):
//   Basic <base64 of user:password>
//   Token {"token":"<uuid>"}      (the word Token, then a JSON object)
// Scheme names are case-insensitive (RFC 7235). Anything present but not
// understood is `invalid`, which the middleware answers with 401 exactly like
// wrong credentials: a client learns nothing more from a malformed header.
import { normaliseTokenId } from './token-id';

export type Credentials =
  | { readonly kind: 'none' }
  | { readonly kind: 'basic'; readonly username: string; readonly password: string }
  | { readonly kind: 'token'; readonly token: string }
  | { readonly kind: 'invalid'; readonly reason: string };

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function parseBasic(param: string): Credentials {
  if (!BASE64.test(param) || param.length % 4 === 1) return { kind: 'invalid', reason: 'Basic credentials are not base64' };
  const decoded = Buffer.from(param, 'base64').toString('utf8');
  // RFC 7617: the user-id cannot contain ':', the password can.
  const colon = decoded.indexOf(':');
  if (colon < 0) return { kind: 'invalid', reason: 'Basic credentials lack the user:password separator' };
  const username = decoded.slice(0, colon);
  if (username === '') return { kind: 'invalid', reason: 'Basic credentials have an empty user name' };
  return { kind: 'basic', username, password: decoded.slice(colon + 1) };
}

function parseToken(param: string): Credentials {
  let json: unknown;
  try {
    json = JSON.parse(param);
  } catch {
    return { kind: 'invalid', reason: 'Token credentials are not JSON' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { kind: 'invalid', reason: 'Token credentials are not a JSON object' };
  }
  const raw = (json as Record<string, unknown>)['token'];
  const token = typeof raw === 'string' ? normaliseTokenId(raw) : undefined;
  if (token === undefined) return { kind: 'invalid', reason: 'Token credentials lack a token in UUID format' };
  return { kind: 'token', token };
}

/** Reads the credentials of a request from its `Authorization` header value. */
export function parseAuthorization(header: string | undefined): Credentials {
  const value = header?.trim() ?? '';
  if (value === '') return { kind: 'none' };
  // The scheme is a token of letters; the JSON of the Token scheme may follow
  // it without a space ("Token{...}"), which costs nothing to accept.
  const match = /^([A-Za-z]+)\s*([\s\S]*)$/.exec(value);
  const scheme = match?.[1]?.toLowerCase();
  const param = match?.[2]?.trim() ?? '';
  switch (scheme) {
    case 'basic':
      return parseBasic(param);
    case 'token':
      return parseToken(param);
    default:
      return { kind: 'invalid', reason: 'Unsupported authorization scheme' };
  }
}
