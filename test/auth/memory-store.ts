// An in-memory PrincipalStore for tests: users and tokens in maps, token uses
// recorded so tests can see touchToken calls.
import type { PrincipalStore, StoredToken, StoredUser } from '../../src/auth/store';
import { tokenIdOf } from '../../src/auth/token-id';

export class MemoryPrincipalStore implements PrincipalStore {
  readonly users = new Map<string, StoredUser>();
  readonly tokens = new Map<string, StoredToken>();
  readonly touches: Array<{ token: string; at: Date }> = [];
  failTouch = false;

  addUser(user: StoredUser): this {
    this.users.set(user.name, user);
    return this;
  }

  /** `token`: the token clients present; stored under it, as the store finds by it. */
  addToken(token: string, stored: Omit<StoredToken, 'id'>): this {
    this.tokens.set(token, { id: tokenIdOf(token), ...stored });
    return this;
  }

  findUser(name: string): Promise<StoredUser | undefined> {
    return Promise.resolve(this.users.get(name));
  }

  findToken(token: string): Promise<StoredToken | undefined> {
    return Promise.resolve(this.tokens.get(token));
  }

  touchToken(token: string, now: Date): Promise<void> {
    if (this.failTouch) return Promise.reject(new Error('redis down'));
    this.touches.push({ token, at: now });
    return Promise.resolve();
  }
}
