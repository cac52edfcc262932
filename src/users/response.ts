// What the interface returns for a user. Built field by field from an
// allow-list, so a password hash can never reach a response, whatever the
// input object carries.
import type { Role } from '../auth/roles';

export interface UserResponse {
  readonly name: string;
  readonly roles: Role[];
}

export function toResponse(user: { readonly name: string; readonly roles: readonly Role[] }): UserResponse {
  return { name: user.name, roles: [...user.roles] };
}
