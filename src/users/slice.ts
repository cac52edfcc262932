// Users: the first-start admin, and (routes) user management for Admins.
import { isLeft } from 'fp-ts/Either';
import type { AppDeps, Slice } from '../slice';
import { runCommand } from '../core/command';
import { hashPassword } from '../auth';
import { USER_KIND } from '../auth';
import { bootstrapAdmin, bootstrapCommand } from './bootstrap';
import { onUser } from './decide';
import { registerUserRoutes } from './routes';

/** Creates `admin` when no user exists at all (the read model is caught up first). */
async function ensureAdmin(deps: AppDeps): Promise<void> {
  const users = await deps.redis.hLen(deps.keys.config(USER_KIND));
  if (users > 0) return;
  const admin = bootstrapAdmin(deps.adminPassword);
  const command = bootstrapCommand(admin, await hashPassword(admin.password));
  const result = await runCommand(deps.client, onUser(admin.name), command, { metadata: { user: 'system' } });
  if (isLeft(result)) return; // another instance (or an earlier start) created it
  // The warning about the default password follows at every start (default-password.ts).
  deps.logger.info('created the first admin user', { user: admin.name, defaultPassword: admin.defaultPassword });
  await deps.waiter.waitFor(result.right.position);
}

export const usersSlice: Slice = {
  name: 'users',
  bootstrap: ensureAdmin,
  register: registerUserRoutes,
};
