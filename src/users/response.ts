// What the interface returns for a user. Built field by field from an
// allow-list, so a password hash can never reach a response, whatever the
// input object carries.
import { ALL_ROLES, type Role } from '../auth';

export interface UserResponse {
  readonly name: string;
  readonly roles: Role[];
}

export function toResponse(user: { readonly name: string; readonly roles: readonly Role[] }): UserResponse {
  return { name: user.name, roles: [...user.roles] };
}

/** A user as returned (toResponse): never a password or its hash. */
export const USER_SCHEMA: Record<string, unknown> = {
  type: 'object',
  required: ['name', 'roles'],
  additionalProperties: false,
  properties: { name: { type: 'string' }, roles: { type: 'array', items: { type: 'string', enum: [...ALL_ROLES] } } },
};
