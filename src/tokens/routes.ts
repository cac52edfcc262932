// Token routes (`/authentication/v1`). Issuing and revoking are events on
// `tokens-<username>`, followed by a wait for the read model so the token
// works (or stops working) on the very next request. `lastUsed` is not an
// event: authentication writes it to a Redis hash (touchToken), which the
// listing reads beside the stream's own fold.
import { isLeft } from 'fp-ts/Either';
import type { Context } from 'koa';
import type { RouteTable } from '../core/http/routes';
import type { AppDeps } from '../slice';
import { aggregateStream } from '../core/eventstore';
import { decodeInput } from '../core/http/decode';
import { notFound, type ApiError } from '../core/http/errors';
import { commandMetadata } from '../core/resource/routes';
import { currentPrincipal, requireBasicAuth, WWW_AUTHENTICATE, RedisPrincipalStore, type Role } from '../auth';
import { getUser, USER_SCHEMA } from '../users';
import { RevokeTokenBody } from './codec';
import { runTokenCommand } from './commands';
import { tokensDecider } from './decide';
import { tokenEvents, tokensStream, type TokensState } from './events';
import { toTokenListing, toTokenResponse } from './listing';
import { isTokenId, newTokenId, tokenIdOf, tokenIdOfDigest, tokenSha256 } from '../auth';
import { tokenToValidate, validateToken, validateTokenErrorToApi } from './validate';

const TOKEN_SCHEMA: Record<string, unknown> = { type: 'object', required: ['token'], additionalProperties: false, properties: { token: { type: 'string', format: 'uuid' } } };
/** A listing entry: the token id, never a token (only digests are stored). */
const TOKEN_ENTRY_SCHEMA: Record<string, unknown> = {
  type: 'object',
  required: ['authenticationToken', 'issued', 'lastUsed', 'username', 'valid'],
  additionalProperties: false,
  properties: {
    authenticationToken: TOKEN_SCHEMA,
    issued: { type: 'string', format: 'date-time' },
    lastUsed: { type: 'string', format: 'date-time', nullable: true },
    username: { type: 'string' },
    valid: { type: 'boolean' },
  },
};

const BASE = '/authentication/v1';
const TAG = 'Authentication tokens';
const ADMIN_ONLY: Role[] = ['Admin'];
const TOKEN_FOR_SELF: Role[] = ['ConfigManager', 'Admin', 'JobRunner'];

const tokenSchema = { type: 'string', format: 'uuid' };
const tokenBodySchema = { type: 'object', required: ['token'], properties: { token: { ...tokenSchema, writeOnly: true, description: 'the token, or the id listTokens shows for it' } } };

async function issue(deps: AppDeps, ctx: Context, username: string): Promise<void> {
  const issuer = currentPrincipal(ctx);
  const userExists = (await getUser(deps, username)) !== undefined;
  const token = newTokenId();
  // Only the digest goes into the event; the token is answered once, here.
  await runTokenCommand(deps, { type: 'IssueToken', tokenSha256: tokenSha256(token), username, issuer, userExists }, commandMetadata(ctx));
  ctx.body = toTokenResponse(token);
}

async function tokensOf(deps: AppDeps, username: string): Promise<TokensState> {
  const { state } = await aggregateStream({ client: deps.client, stream: tokensStream(username), codecs: tokenEvents, ...tokensDecider });
  return state;
}

/** A 401 with the challenge header, which our error middleware keeps. */
function invalidToken(ctx: Context, error: ApiError): ApiError {
  if (error.status === 401) ctx.set('WWW-Authenticate', WWW_AUTHENTICATE);
  return error;
}

export function registerTokenRoutes(table: RouteTable, deps: AppDeps): void {
  const store = new RedisPrincipalStore(deps.redis, deps.keys);
  registerIssueRoutes(table, deps);
  registerListAndRevokeRoutes(table, deps, store);
  registerValidateRoutes(table, store);
}

/** Issuing a token for a user (Admin) or for the caller (Basic credentials only). */
function registerIssueRoutes(table: RouteTable, deps: AppDeps): void {
  const basicOnly = requireBasicAuth();

  table.add(
    {
      method: 'put',
      operationId: 'getTokenForUser',
      path: `${BASE}/token/:username`,
      roles: ADMIN_ONLY,
      tag: TAG,
      summary: 'Issue a token for a user',
      responses: { 200: { description: '{token}', schema: TOKEN_SCHEMA }, 401: 'no or invalid credentials', 403: 'not an Admin', 404: 'no such user' },
    },
    async (ctx) => issue(deps, ctx, String(ctx.params['username'])),
  );

  table.add(
    {
      method: 'get',
      operationId: 'getToken',
      path: `${BASE}/token`,
      roles: TOKEN_FOR_SELF,
      tag: TAG,
      summary: 'Issue a token for the calling user; requires Basic credentials (a token cannot mint tokens)',
      responses: { 200: { description: '{token}', schema: TOKEN_SCHEMA }, 401: 'no or invalid credentials, or Token credentials', 403: 'role not allowed' },
    },
    async (ctx) => basicOnly(ctx, async () => issue(deps, ctx, currentPrincipal(ctx).name)),
  );
}

/** A user's tokens: listing them, revoking one or all (Admin only). */
function registerListAndRevokeRoutes(table: RouteTable, deps: AppDeps, store: RedisPrincipalStore): void {
  table.add(
    {
      method: 'get',
      operationId: 'listTokens',
      path: `${BASE}/listTokens/:username`,
      roles: ADMIN_ONLY,
      tag: TAG,
      summary: 'Every token of a user, revoked ones included (valid=false), oldest first; each shows its token id (a version-8 UUID), not the token, which is not stored',
      responses: {
        200: { description: 'array of {authenticationToken: {token}, issued, lastUsed, username, valid}', schema: { type: 'array', items: TOKEN_ENTRY_SCHEMA } },
        401: 'no or invalid credentials',
        403: 'not an Admin',
        404: 'no such user and no tokens under that name',
      },
    },
    async (ctx) => listTokens(deps, ctx),
  );

  table.add(
    {
      method: 'put',
      operationId: 'revokeToken',
      path: `${BASE}/revokeToken`,
      roles: ADMIN_ONLY,
      tag: TAG,
      summary: 'Revoke one token, given as the token or as the id listTokens shows',
      body: tokenBodySchema,
      responses: { 204: 'revoked (or already revoked)', 400: 'body.token missing or not a UUID', 401: 'no or invalid credentials', 403: 'not an Admin', 404: 'unknown token' },
    },
    async (ctx) => {
      const { token } = decodeInput(RevokeTokenBody, ctx.request.body, 'body');
      // The token itself, or the id listTokens shows for it.
      const stored = await store.findTokenById(isTokenId(token) ? token : tokenIdOf(token));
      if (stored === undefined) throw notFound('Token not found');
      await runTokenCommand(deps, { type: 'RevokeToken', username: stored.username, tokenId: stored.id }, commandMetadata(ctx));
      ctx.status = 204;
    },
  );

  table.add(
    {
      method: 'put',
      operationId: 'revokeTokens',
      path: `${BASE}/revokeTokens/:username`,
      roles: ADMIN_ONLY,
      tag: TAG,
      summary: 'Revoke every token of a user',
      responses: { 204: 'revoked (nothing left valid)', 401: 'no or invalid credentials', 403: 'not an Admin', 404: 'no such user and no tokens under that name' },
    },
    async (ctx) => {
      const username = String(ctx.params['username']);
      const userExists = (await getUser(deps, username)) !== undefined;
      await runTokenCommand(deps, { type: 'RevokeAllTokens', username, userExists }, commandMetadata(ctx));
      ctx.status = 204;
    },
  );
}

async function listTokens(deps: AppDeps, ctx: Context): Promise<void> {
  const username = String(ctx.params['username']);
  const state = await tokensOf(deps, username);
  if (state.tokens.length === 0 && (await getUser(deps, username)) === undefined) throw notFound(`User ${username} not found`);
  const ids = state.tokens.map((r) => tokenIdOfDigest(r.tokenSha256));
  const used = ids.length ? await deps.redis.hmGet(deps.keys.tokenLastUsed, ids) : [];
  const lastUsed = new Map<string, Date>();
  ids.forEach((id, i) => {
    const at = used[i];
    if (typeof at === 'string') lastUsed.set(id, new Date(at));
  });
  ctx.body = toTokenListing(username, state, lastUsed);
}

/** Validating a token given in the body or in the path (Admin only): one handler behind both. */
function registerValidateRoutes(table: RouteTable, store: RedisPrincipalStore): void {
  const validate = async (ctx: Context): Promise<void> => {
    const pathToken = ctx.params['token'] as string | undefined;
    const requested = tokenToValidate(pathToken, ctx.request.body);
    if (isLeft(requested)) throw invalidToken(ctx, validateTokenErrorToApi(requested.left));
    const user = await validateToken(store, requested.right);
    if (isLeft(user)) throw invalidToken(ctx, validateTokenErrorToApi(user.left));
    ctx.body = user.right;
  };
  const validateResponses = {
    200: { description: 'the user of the token (name, roles)', schema: USER_SCHEMA },
    400: 'body.token is not a string',
    401: 'invalid, unknown or revoked token (or no or invalid credentials)',
    403: 'not an Admin',
    422: 'no token given',
  };
  // No `body` schema on these two specs, on purpose: a body without a token
  // is answered 422 (docs/interface.md, Authentication), not the 400 that the generic
  // bad-input check (test/app/bad-input) expects of routes declaring a body.
  // The body form is described in the summary and docs/api.md.
  table.add(
    {
      method: 'post',
      operationId: 'validateToken',
      path: `${BASE}/validateToken`,
      roles: ADMIN_ONLY,
      tag: TAG,
      summary: 'Validate a token given in the JSON body {"token": "<uuid>"}',
      responses: validateResponses,
    },
    validate,
  );
  table.add(
    {
      method: 'post',
      operationId: 'validateTokenInPath',
      path: `${BASE}/validateToken/:token`,
      roles: ADMIN_ONLY,
      tag: TAG,
      summary: 'Validate a token given in the path (the form one client uses)',
      responses: validateResponses,
    },
    validate,
  );
}
