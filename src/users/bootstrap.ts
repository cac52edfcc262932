// First start: a service with no users would be unreachable, so it creates
// `admin` with every role. The password comes from ADMIN_PASSWORD; without
// it, the well-known default of such services (`admindefault`, which
// existing clients and scripts expect) is used, and a warning says to change
// it at every start for as long as it is in use (default-password.ts).
import { ALL_ROLES, type Role } from '../auth';
import type { UserCommand } from './decide';

export const BOOTSTRAP_ADMIN_NAME = 'admin';
export const DEFAULT_ADMIN_PASSWORD = 'admindefault';

export interface BootstrapAdmin {
  readonly name: string;
  readonly roles: readonly Role[];
  /** Plain text: hash it with hashPassword, never log it. */
  readonly password: string;
  /** True when the well-known default password is used (default-password.ts warns about it at every start). */
  readonly defaultPassword: boolean;
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
    defaultPassword: !fromEnv,
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
