// What a new password must be (a user created, a password changed). As NIST
// SP 800-63B advises: length, not composition rules (no "a digit and a
// symbol": they make passwords harder to remember, not to guess), and no
// password that guessers try first: the user's own name, or one of the most
// common passwords. Applied to new passwords only: a stored password keeps
// working at login, the factory default included (the default-password
// warning asks for it to be changed).
import { COMMON_PASSWORDS } from './common-passwords';

/** Characters (Unicode code points), so a passphrase in any script counts as typed. */
export const MIN_PASSWORD_LENGTH = 12;
/** Enough for any passphrase; keeps a request from making the hash function digest megabytes. */
export const MAX_PASSWORD_LENGTH = 256;

/** Why `password` may not be the new password of user `userName`; undefined when it may. */
export function passwordProblem(password: string, userName: string): string | undefined {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters, got ${length}`;
  if (length > MAX_PASSWORD_LENGTH) return `must be at most ${MAX_PASSWORD_LENGTH} characters, got ${length}`;
  const lower = password.toLowerCase();
  if (lower === userName.toLowerCase()) return 'must not be the user name';
  if (COMMON_PASSWORDS.has(lower)) return 'is one of the most common passwords, which are tried first: choose another';
  return undefined;
}
