// Decisions on one user. Pure: passwords arrive already hashed (hashing is
// slow and random, so it happens before), and facts about other users (how
// many other admins exist) arrive in the command from the users read model.
import { left, right, type Either } from 'fp-ts/Either';
import { badRequest, conflict, notFound, type ApiError } from '../core/http/errors';
import { normaliseRoles, type Role } from '../auth';
import type { CommandStream, Decider } from '../core/command';
import { assertNever, evolveUser, initialUserState, userEvents, userStream, type UserEvent, type UserState } from './events';

export type UserCommand =
  | { readonly type: 'CreateUser'; readonly name: string; readonly roles: readonly Role[]; readonly passwordHash: string }
  | {
      readonly type: 'CreateOrReplaceUser';
      readonly name: string;
      readonly roles: readonly Role[];
      /** Absent: keep the stored hash (allowed only when the user exists). */
      readonly passwordHash?: string;
      /** Users other than this one holding Admin, from the read model. */
      readonly otherAdmins: number;
    }
  | { readonly type: 'DeleteUser'; readonly name: string; readonly otherAdmins: number };

export type UserError =
  | { readonly code: 'UserExists'; readonly name: string }
  | { readonly code: 'UserNotFound'; readonly name: string }
  | { readonly code: 'PasswordRequired'; readonly name: string }
  | { readonly code: 'LastAdmin'; readonly name: string };

const exists = (state: UserState): state is Extract<UserState, { status: 'active' }> => state.status === 'active';

const sameRoles = (a: readonly Role[], b: readonly Role[]): boolean =>
  a.length === b.length && a.every((role, i) => role === b[i]);

/**
 * The service must keep at least one Admin: without one nobody can manage
 * users any more, and the first-start bootstrap only runs when there are no
 * users at all. So deleting or demoting the last Admin is refused (409).
 * The count comes from a read model, so two concurrent removals of the last
 * two admins could both pass; that needs two admins racing each other.
 */
const removesLastAdmin = (state: UserState, stillAdmin: boolean, otherAdmins: number): boolean =>
  exists(state) && state.roles.includes('Admin') && !stillAdmin && otherAdmins === 0;

export function decideUser(command: UserCommand, state: UserState, _now: Date): Either<UserError, UserEvent[]> {
  switch (command.type) {
    case 'CreateUser': {
      if (exists(state)) return left({ code: 'UserExists', name: command.name });
      const data = { name: command.name, roles: normaliseRoles(command.roles), passwordHash: command.passwordHash };
      return right([{ type: 'UserCreated', data }]);
    }
    case 'CreateOrReplaceUser': {
      const roles = normaliseRoles(command.roles);
      if (!exists(state)) {
        if (command.passwordHash === undefined) return left({ code: 'PasswordRequired', name: command.name });
        return right([{ type: 'UserCreated', data: { name: command.name, roles, passwordHash: command.passwordHash } }]);
      }
      if (removesLastAdmin(state, roles.includes('Admin'), command.otherAdmins)) {
        return left({ code: 'LastAdmin', name: command.name });
      }
      const passwordHash = command.passwordHash ?? state.passwordHash;
      // Same roles and no new password: nothing changes, nothing is written.
      if (passwordHash === state.passwordHash && sameRoles(roles, normaliseRoles(state.roles))) return right([]);
      return right([{ type: 'UserReplaced', data: { name: command.name, roles, passwordHash } }]);
    }
    case 'DeleteUser':
      if (!exists(state)) return left({ code: 'UserNotFound', name: command.name });
      if (removesLastAdmin(state, false, command.otherAdmins)) return left({ code: 'LastAdmin', name: command.name });
      return right([{ type: 'UserDeleted', data: { name: command.name } }]);
    default:
      return assertNever(command);
  }
}

/** The HTTP answer to a refused user command. */
export function userErrorToApi(error: UserError): ApiError {
  switch (error.code) {
    case 'UserExists':
      return conflict(`User ${error.name} already exists`);
    case 'UserNotFound':
      return notFound(`User ${error.name} not found`);
    case 'PasswordRequired':
      return badRequest(`User ${error.name} does not exist; creating it requires a password`, [
        { path: 'body.password', reason: 'is required when creating a user' },
      ]);
    case 'LastAdmin':
      return conflict(`User ${error.name} is the last Admin; create another Admin first`);
    default:
      return assertNever(error);
  }
}

export const userDecider: Decider<UserCommand, UserState, UserEvent, UserError> = { initialState: initialUserState, evolve: evolveUser, decide: decideUser };

/** For runCommand: the user's own stream. Without a conflict message a lost race escapes as ConcurrencyError (bootstrap). */
export const onUser = (name: string, conflict?: string): CommandStream<typeof userEvents, UserCommand, UserState, UserError> => ({
  stream: userStream(name),
  codecs: userEvents,
  decider: userDecider,
  ...(conflict !== undefined ? { conflict } : {}),
});
