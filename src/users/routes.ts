// User management routes (Admin only), and currentUser/authenticate (any
// role). Commands hash the password first (slow, random: outside the pure
// decider), count the other Admins in the users read model, decide on the
// user's own stream, then wait for the read model (read-your-writes, which
// authentication depends on: a changed password works on the next request).
import { isLeft, left, right, type Either } from 'fp-ts/Either';
import type * as t from 'io-ts';
import type { Context } from 'koa';
import type { RouteTable } from '../core/http/routes';
import type { AppDeps } from '../slice';
import { runCommand, type CommandOutcome } from '../core/command';
import { decodeAndCheck, decodeInput } from '../core/http/decode';
import { ApiError, badRequest, notFound } from '../core/http/errors';
import { commandMetadata } from '../core/resource/routes';
import { currentPrincipal, hashPassword, ALL_ROLES, type Role } from '../auth';
import { CreateOrReplaceUserBody, CreateUserBody, MAX_USER_NAME_LENGTH, ShowUsersQuery } from './codec';
import { onUser, userErrorToApi, type UserCommand } from './decide';
import type { UserEvent, UserState } from './events';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordProblem } from './password-policy';
import { getUser, listUsers, otherAdmins } from './readmodel';
import { toResponse, USER_SCHEMA } from './response';

const BASE = '/configuration/v1/users';
const TAG = 'Users';
const ADMIN_ONLY = ['Admin'];
/** Every role: any user holding at least one role. */
const ANY_ROLE = [...ALL_ROLES];

const NEW_PASSWORD_RULE = `a new password: ${MIN_PASSWORD_LENGTH}-${MAX_PASSWORD_LENGTH} characters, not the user name, not one of the most common passwords`;
const roleSchema = { type: 'string', enum: [...ALL_ROLES] };
const userBodySchema = (passwordRequired: boolean): Record<string, unknown> => ({
  type: 'object',
  required: passwordRequired ? ['name', 'password', 'roles'] : ['name', 'roles'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: MAX_USER_NAME_LENGTH, description: "user name; no ':' nor control characters, no surrounding blanks, not '.' or '..'" },
    password: {
      type: 'string',
      minLength: MIN_PASSWORD_LENGTH,
      maxLength: MAX_PASSWORD_LENGTH,
      description: `${NEW_PASSWORD_RULE}${passwordRequired ? '' : '; optional when the user exists (the password is kept)'}`,
      // Stored only as an argon2id hash, never returned.
      writeOnly: true,
      ...(passwordRequired ? {} : { nullable: true }),
    },
    roles: { type: 'array', items: roleSchema },
  },
});

/** Decides a user command and waits for the read model; a refusal is thrown as its ApiError. */
async function runUserCommand(deps: AppDeps, command: UserCommand, ctx: Context): Promise<CommandOutcome<UserState, UserEvent>> {
  const stream = onUser(command.name, `User ${command.name} was changed concurrently; retry`);
  const result = await runCommand(deps.client, stream, command, { metadata: commandMetadata(ctx), waiter: deps.waiter });
  if (isLeft(result)) throw userErrorToApi(result.left);
  return result.right;
}

/**
 * Lets every slice clean up what it keeps for a user that does not exist (any
 * more), e.g. its tokens, so that a user created later under the same name
 * inherits nothing.
 */
async function forgetUser(deps: AppDeps, name: string, ctx: Context): Promise<void> {
  for (const gone of deps.userGone) await gone(deps, name, commandMetadata(ctx));
}

function activeUser(state: UserState, name: string): { readonly name: string; readonly roles: readonly Role[] } {
  if (state.status !== 'active') throw new Error(`User ${name} missing after a write`);
  return state;
}

export function registerUserRoutes(table: RouteTable, deps: AppDeps): void {
  registerUserChangeRoutes(table, deps);
  registerUserShowRoutes(table, deps);
  registerCallerAndRoleRoutes(table);
}

/** Create, create-or-replace and delete (Admin only). */
function registerUserChangeRoutes(table: RouteTable, deps: AppDeps): void {
  table.add(
    {
      method: 'post',
      operationId: 'createUser',
      path: `${BASE}/create`,
      roles: ADMIN_ONLY,
      tag: TAG,
      summary: 'Create a user (does not replace)',
      body: userBodySchema(true),
      responses: { 200: { description: 'the user (name, roles)', schema: USER_SCHEMA }, 400: 'invalid input', 401: 'no or invalid credentials', 403: 'not an Admin', 409: 'user already exists' },
    },
    async (ctx) => createUser(deps, ctx),
  );

  table.add(
    {
      method: 'put',
      operationId: 'createOrReplaceUser',
      path: `${BASE}/createOrReplace`,
      roles: ADMIN_ONLY,
      tag: TAG,
      summary: 'Create or replace a user; the password may be left out when the user exists',
      body: userBodySchema(false),
      responses: {
        200: { description: 'the user (name, roles)', schema: USER_SCHEMA },
        400: 'invalid input, or no password for a new user (body.password)',
        401: 'no or invalid credentials',
        403: 'not an Admin',
        409: 'would remove the last Admin, or changed concurrently',
      },
    },
    async (ctx) => createOrReplaceUser(deps, ctx),
  );

  table.add(
    {
      method: 'delete',
      operationId: 'destroyUser',
      path: `${BASE}/destroy/:username`,
      roles: ADMIN_ONLY,
      tag: TAG,
      summary: 'Delete a user and revoke all of its tokens',
      responses: { 204: 'deleted', 401: 'no or invalid credentials', 403: 'not an Admin', 404: 'no such user', 409: 'the last Admin' },
    },
    async (ctx) => destroyUser(deps, ctx),
  );
}

/** The password policy on a body's new password, if it carries one. */
function withNewPassword<B extends { readonly name: string; readonly password?: string | null }>(body: B): Either<ApiError, B> {
  const problem = typeof body.password === 'string' ? passwordProblem(body.password, body.name) : undefined;
  return problem === undefined ? right(body) : left(badRequest(`The new password of ${body.name} is refused: it ${problem}`, [{ path: 'body.password', reason: problem }]));
}

/** The body decoded, its new password checked; one 400 names every problem. */
function decodeUserBody<B extends { readonly name: string; readonly password?: string | null }>(codec: t.Decoder<unknown, B>, ctx: Context): B {
  const body = decodeAndCheck(codec, ctx.request.body, 'body', withNewPassword);
  if (isLeft(body)) throw body.left;
  return body.right;
}

async function createUser(deps: AppDeps, ctx: Context): Promise<void> {
  const body = decodeUserBody(CreateUserBody, ctx);
  const passwordHash = await hashPassword(body.password);
  // A name coming back after a delete must not find tokens still valid
  // (a delete interrupted between its two steps, or a token issued while
  // the user was being deleted): they are revoked before it exists again.
  if ((await getUser(deps, body.name)) === undefined) await forgetUser(deps, body.name, ctx);
  const outcome = await runUserCommand(deps, { type: 'CreateUser', name: body.name, roles: body.roles, passwordHash }, ctx);
  ctx.body = toResponse(activeUser(outcome.state, body.name));
}

async function createOrReplaceUser(deps: AppDeps, ctx: Context): Promise<void> {
  const body = decodeUserBody(CreateOrReplaceUserBody, ctx);
  const passwordHash = typeof body.password === 'string' ? await hashPassword(body.password) : undefined;
  const existing = await getUser(deps, body.name);
  if (existing === undefined && passwordHash !== undefined) await forgetUser(deps, body.name, ctx);
  const outcome = await runUserCommand(
    deps,
    {
      type: 'CreateOrReplaceUser',
      name: body.name,
      roles: body.roles,
      ...(passwordHash !== undefined ? { passwordHash } : {}),
      otherAdmins: await otherAdmins(deps, body.name),
    },
    ctx,
  );
  ctx.body = toResponse(activeUser(outcome.state, body.name));
}

async function destroyUser(deps: AppDeps, ctx: Context): Promise<void> {
  const name = String(ctx.params['username']);
  try {
    await runUserCommand(deps, { type: 'DeleteUser', name, otherAdmins: await otherAdmins(deps, name) }, ctx);
  } catch (err) {
    // Retrying a delete whose token step failed answers 404 and finishes it.
    if (err instanceof ApiError && err.status === 404) await forgetUser(deps, name, ctx);
    throw err;
  }
  await forgetUser(deps, name, ctx);
  ctx.status = 204;
}

/** One user or every user, as the read model has them (Admin only). */
function registerUserShowRoutes(table: RouteTable, deps: AppDeps): void {
  table.add(
    {
      method: 'get',
      operationId: 'showUser',
      path: `${BASE}/show/:username`,
      roles: ADMIN_ONLY,
      tag: TAG,
      summary: 'Show one user',
      responses: { 200: { description: 'the user (name, roles)', schema: USER_SCHEMA }, 401: 'no or invalid credentials', 403: 'not an Admin', 404: 'no such user' },
    },
    async (ctx) => {
      const name = String(ctx.params['username']);
      const user = await getUser(deps, name);
      if (user === undefined) throw notFound(`User ${name} not found`);
      ctx.body = toResponse(user);
    },
  );

  table.add(
    {
      method: 'get',
      operationId: 'showUsers',
      path: `${BASE}/show`,
      roles: ADMIN_ONLY,
      tag: TAG,
      summary: 'Show every user, or only those holding a role',
      query: [{ name: 'role', description: 'only users holding this role', schema: roleSchema }],
      responses: { 200: { description: 'array of users (name, roles), by name', schema: { type: 'array', items: USER_SCHEMA } }, 400: 'unknown role (query.role)', 401: 'no or invalid credentials', 403: 'not an Admin' },
    },
    async (ctx) => {
      const query = decodeInput(ShowUsersQuery, ctx.query, 'query');
      const users = await listUsers(deps);
      ctx.body = users.filter((u) => query.role === undefined || u.roles.includes(query.role)).map(toResponse);
    },
  );
}

/** The caller's own user (any role), and the roles there are. */
function registerCallerAndRoleRoutes(table: RouteTable): void {
  table.add(
    {
      method: 'get',
      operationId: 'showCurrentUser',
      path: `${BASE}/currentUser`,
      roles: ANY_ROLE,
      tag: TAG,
      summary: 'The user of the calling credentials',
      responses: { 200: { description: 'the user (name, roles)', schema: USER_SCHEMA }, 401: 'no or invalid credentials', 403: 'the user holds no role' },
    },
    async (ctx) => {
      ctx.body = toResponse(currentPrincipal(ctx));
    },
  );

  table.add(
    {
      method: 'get',
      operationId: 'showRoles',
      path: `${BASE}/roles/show`,
      roles: ADMIN_ONLY,
      tag: TAG,
      summary: 'The roles assignable to users',
      responses: { 200: { description: 'array of role names', schema: { type: 'array', items: { type: 'string', enum: [...ALL_ROLES] } } }, 401: 'no or invalid credentials', 403: 'not an Admin' },
    },
    async (ctx) => {
      ctx.body = [...ALL_ROLES];
    },
  );

  table.add(
    {
      method: 'get',
      operationId: 'authenticate',
      path: `${BASE}/authenticate`,
      roles: ANY_ROLE,
      tag: TAG,
      summary: 'Checks the calling credentials (Basic or Token) and returns their user',
      responses: { 200: { description: 'the user (name, roles)', schema: USER_SCHEMA }, 401: 'no user given, or credentials not authorised', 403: 'the user holds no role' },
    },
    async (ctx) => {
      ctx.body = toResponse(currentPrincipal(ctx));
    },
  );
}
