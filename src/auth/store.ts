// What authentication needs from storage, and nothing more. The lead wires it
// to the read models (users and tokens in Redis); tests use an in-memory one.
import type { Role } from './roles';

export interface StoredUser {
  readonly name: string;
  readonly roles: readonly Role[];
  /** argon2id PHC string (see password.ts). */
  readonly passwordHash: string;
}

export interface StoredToken {
  /** The token's id (auth/token-id.ts tokenIdOf): only a digest of the token is stored. */
  readonly id: string;
  readonly username: string;
  readonly issued: Date;
  /** False once revoked; tokens have no expiry (docs/interface.md: they last until revoked). */
  readonly valid: boolean;
}

export interface PrincipalStore {
  findUser(name: string): Promise<StoredUser | undefined>;
  /** `token` is the token a client presented, already lower-case (as issued). */
  findToken(token: string): Promise<StoredToken | undefined>;
  /**
   * Records that a token was used at `now` (the `lastUsed` of token listings).
   * Expected to be a cheap, throttled read-model write, not an event: a
   * token used on every request would otherwise flood its stream. A failure
   * here is logged and does not fail the request.
   */
  touchToken(token: string, now: Date): Promise<void>;
}
