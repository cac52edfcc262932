// The built-in admin with the well-known default password is an open door
// (every client and script of this interface knows `admin`/`admindefault`).
// Warned about at every start for as long as it is in use, and shown in the
// `warnings` of /healthz, where monitoring looks, not only at the first start.
import { verifyPassword, type StoredUser } from '../auth';
import { withTimeout } from '../core/health';
import { BOOTSTRAP_ADMIN_NAME, DEFAULT_ADMIN_PASSWORD } from './bootstrap';

export const DEFAULT_PASSWORD_WARNING =
  `User ${BOOTSTRAP_ADMIN_NAME} has the well-known default password: change it ` +
  '(PUT /configuration/v1/users/createOrReplace), or set ADMIN_PASSWORD before the first start';

/**
 * Whether `admin` still has the default password. The argon2 check runs once
 * per stored hash (a password change gives a new hash), so /healthz can ask
 * on every probe for the cost of one read-model lookup.
 */
export class DefaultPasswordCheck {
  private checked: { readonly hash: string; readonly inUse: boolean } | undefined;

  constructor(private readonly findUser: (name: string) => Promise<StoredUser | undefined>) {}

  async inUse(): Promise<boolean> {
    const admin = await this.findUser(BOOTSTRAP_ADMIN_NAME);
    if (admin === undefined) return false;
    if (this.checked?.hash !== admin.passwordHash) {
      this.checked = { hash: admin.passwordHash, inUse: await verifyPassword(admin.passwordHash, DEFAULT_ADMIN_PASSWORD) };
    }
    return this.checked.inUse;
  }

  /** The `warnings` of /healthz: empty when the password was changed, or when it cannot be told now. */
  async warnings(timeoutMs: number): Promise<string[]> {
    try {
      return (await withTimeout(this.inUse(), timeoutMs, 'default password check')) ? [DEFAULT_PASSWORD_WARNING] : [];
    } catch {
      return [];
    }
  }
}
