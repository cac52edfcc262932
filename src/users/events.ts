// User aggregate: one stream per user (`user-<name>`), state folded from its
// events. Deletion is an event, so the same name can be created again later
// and the audit trail stays.
import * as t from 'io-ts';
import { defineEvents, type EventOf } from '../core/events';
import { Role, type Role as RoleT } from '../auth';

// Only the hash is ever stored (architecture: secrets as slow salted hashes).
const UserData = t.type({ name: t.string, roles: t.array(Role), passwordHash: t.string });

export const userEvents = defineEvents({
  UserCreated: UserData,
  UserReplaced: UserData,
  UserDeleted: t.type({ name: t.string }),
});
export type UserEvent = EventOf<typeof userEvents>;

export const userStream = (name: string): string => `user-${name}`;

export interface ActiveUser {
  readonly name: string;
  readonly roles: readonly RoleT[];
  readonly passwordHash: string;
}

export type UserState =
  | { readonly status: 'none' }
  | ({ readonly status: 'active' } & ActiveUser)
  | { readonly status: 'deleted'; readonly name: string };

export const initialUserState: UserState = { status: 'none' };

export function evolveUser(_state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserCreated':
    case 'UserReplaced':
      return { status: 'active', name: event.data.name, roles: event.data.roles, passwordHash: event.data.passwordHash };
    case 'UserDeleted':
      return { status: 'deleted', name: event.data.name };
    default:
      return assertNever(event);
  }
}

export function assertNever(x: never): never {
  throw new Error(`unexpected ${JSON.stringify(x)}`);
}
