// `POST /authentication/v1/validateToken` (body `{token}`) and the path form
// `POST /authentication/v1/validateToken/{token}` one client uses
// (docs/interface.md). 200 with the user when valid, 422 when no token is given,
// 401 when it is not a valid token (docs/interface.md, Authentication).
import { left, right, type Either } from 'fp-ts/Either';
import { badRequest, unauthorized, unprocessable, type ApiError } from '../core/http/errors';
import { userOfToken, type PrincipalStore } from '../auth';
import { toResponse, type UserResponse } from '../users';
import { assertNever } from './events';
import { normaliseTokenId } from '../auth';

export type ValidateTokenError =
  | { readonly code: 'NoToken' }
  | { readonly code: 'TokenNotAString' }
  | { readonly code: 'InvalidToken' };

const isBlank = (u: unknown): boolean => u === undefined || u === null || (typeof u === 'string' && u.trim() === '');

/**
 * The token a validateToken request names: the path parameter when present,
 * else `body.token`. A string that is not a UUID cannot be a token of ours,
 * so it is invalid (401), not malformed; a non-string is malformed (400).
 */
export function tokenToValidate(pathToken: string | undefined, body: unknown): Either<ValidateTokenError, string> {
  const raw: unknown = !isBlank(pathToken)
    ? pathToken
    : typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)['token']
      : undefined;
  if (isBlank(raw)) return left({ code: 'NoToken' });
  if (typeof raw !== 'string') return left({ code: 'TokenNotAString' });
  const token = normaliseTokenId(raw);
  return token === undefined ? left({ code: 'InvalidToken' }) : right(token);
}

/**
 * The user of a valid token. Unknown, revoked, or belonging to a user that
 * no longer exists: invalid. Validating is not using, so lastUsed stays.
 */
export async function validateToken(
  store: PrincipalStore,
  token: string,
): Promise<Either<ValidateTokenError, UserResponse>> {
  const user = await userOfToken(store, token);
  return user ? right(toResponse(user)) : left({ code: 'InvalidToken' });
}

export function validateTokenErrorToApi(error: ValidateTokenError): ApiError {
  switch (error.code) {
    case 'NoToken':
      return unprocessable('No token provided', [{ path: 'body.token', reason: 'is required' }]);
    case 'TokenNotAString':
      return badRequest('Invalid request body', [{ path: 'body.token', reason: 'expected a string' }]);
    case 'InvalidToken':
      return unauthorized('Invalid or revoked token');
    default:
      return assertNever(error);
  }
}
