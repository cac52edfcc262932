// First start: a service with no users would be unreachable, so it creates
// `admin` with every role. The password comes from ADMIN_PASSWORD; without
// it, the well-known default of such services (`admindefault`, which
// existing clients and scripts expect) is used and a warning says to change it.
import { ALL_ROLES, type Role } from '../auth/roles';
import type { UserCommand } from './decide';

export const BOOTSTRAP_ADMIN_NAME = 'admin';
export const DEFAULT_ADMIN_PASSWORD = 'admindefault';

export interface BootstrapAdmin {
  readonly name: string;
  readonly roles: readonly Role[];
  /** Plain text: hash it with hashPassword, never log it. */
  readonly password: string;
  /** To be logged (warn) when the well-known default password is used. */
  readonly warning: string | undefined;
}

/**
 * What to create when the users read model is empty. Call it only then;
 * an empty ADMIN_PASSWORD counts as unset (an empty password is refused
 * everywhere else too).
 */
export function bootstrapAdmin(passwordFromEnv?: string): BootstrapAdmin {
  const fromEnv = passwordFromEnv !== undefined && passwordFromEnv !== '';
  return {
    name: BOOTSTRAP_ADMIN_NAME,
    roles: [...ALL_ROLES],
    password: fromEnv ? passwordFromEnv : DEFAULT_ADMIN_PASSWORD,
    warning: fromEnv
      ? undefined
      : `No users exist and ADMIN_PASSWORD is not set: created user ${BOOTSTRAP_ADMIN_NAME} with the ` +
        'well-known default password; change it (PUT /configuration/v1/users/createOrReplace)',
  };
}

/**
 * The command that creates the bootstrap admin. It is a plain CreateUser on
 * `user-admin`, so when two instances start at once one wins and the other
 * gets UserExists, which it can ignore.
 */
export function bootstrapCommand(admin: BootstrapAdmin, passwordHash: string): UserCommand {
  return { type: 'CreateUser', name: admin.name, roles: admin.roles, passwordHash };
}
