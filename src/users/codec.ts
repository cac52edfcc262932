// Request bodies of the user endpoints. Names and passwords are checked here,
// at the boundary, so that events only ever hold well-formed values.
import * as t from 'io-ts';
import { nameProblem } from '../core/text';
import { Role } from '../auth';

function constrainedString(name: string, reasonIfBad: (s: string) => string | undefined): t.Type<string, string, unknown> {
  return new t.Type<string, string, unknown>(
    name,
    (u): u is string => typeof u === 'string' && reasonIfBad(u) === undefined,
    (u, c) => {
      if (typeof u !== 'string') return t.failure(u, c);
      const reason = reasonIfBad(u);
      return reason === undefined ? t.success(u) : t.failure(u, c, reason);
    },
    t.identity,
  );
}

/** Longest user name: shorter than other names (MAX_NAME_LENGTH), as always. */
export const MAX_USER_NAME_LENGTH = 128;

/**
 * A user name: the rule of every name (core/text.ts: not empty, no control
 * characters, not `.` or `..`, which no URL path can address, so such a user
 * could never be shown or deleted), and further: at most 128 characters, no
 * ':' (Basic credentials split user from password at the first colon, so such
 * a user could never log in) and no surrounding blanks (invisible in every
 * listing). It is the identifier in paths and stream names (`user-<name>`).
 */
export const UserName = constrainedString('UserName', (s) => {
  if (s.length > MAX_USER_NAME_LENGTH) return `must be at most ${MAX_USER_NAME_LENGTH} characters, got ${s.length}`;
  const problem = nameProblem(s);
  if (problem !== undefined) return problem;
  if (s.includes(':')) return "must not contain ':'";
  if (s.trim() !== s) return 'must not start or end with blanks';
  return undefined;
});

/**
 * A password, as a type: a string. What a new password must be besides
 * (length, not the name, not common) is the password policy's
 * (password-policy.ts), a rule checked after decoding, so that its reason
 * comes in the one answer that lists every problem of the body.
 */
export const Password = new t.Type<string, string, unknown>('Password', t.string.is, (u, c) => (typeof u === 'string' ? t.success(u) : t.failure(u, c)), t.identity);

/**
 * Roles of a user. An empty list is allowed: such a user can authenticate
 * (e.g. `GET /users/authenticate`, AMQP login) but passes no role guard.
 * Duplicates are harmless and removed when stored.
 */
export const Roles = t.array(Role, 'Array<Role>');

/** `POST /configuration/v1/users/create`. Unknown fields are dropped. */
export const CreateUserBody = t.exact(t.type({ name: UserName, password: Password, roles: Roles }));
export type CreateUserBody = t.TypeOf<typeof CreateUserBody>;

/**
 * `PUT /configuration/v1/users/createOrReplace`. The password may be left
 * out (or null) when the user exists: the stored hash is kept. Creating a
 * user without one is refused by the decider (it needs the current state).
 */
export const CreateOrReplaceUserBody = t.intersection([
  t.exact(t.type({ name: UserName, roles: Roles })),
  t.exact(t.partial({ password: t.union([Password, t.null]) })),
]);
export type CreateOrReplaceUserBody = t.TypeOf<typeof CreateOrReplaceUserBody>;

/** Query of `GET /configuration/v1/users/show`: `role` filters by one role. */
export const ShowUsersQuery = t.exact(t.partial({ role: Role }));
export type ShowUsersQuery = t.TypeOf<typeof ShowUsersQuery>;
