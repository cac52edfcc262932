// Roles of the interface. Authorisation is by role per endpoint; `Admin` has
// access to every endpoint, so it passes every check (spec: "Admin is always
// accepted").
import * as t from 'io-ts';

/** The role codec; its failure names the allowed values in `errors[]`. */
export const Role = t.keyof(
  { DataReader: null, JobRunner: null, ConfigManager: null, Admin: null },
  'DataReader | JobRunner | ConfigManager | Admin',
);
export type Role = t.TypeOf<typeof Role>;

/** Every role, in the order `GET /configuration/v1/users/roles/show` lists them. */
export const ALL_ROLES: readonly Role[] = ['Admin', 'ConfigManager', 'DataReader', 'JobRunner'];

/** Who is calling, as far as authorisation cares. */
export interface Principal {
  readonly name: string;
  readonly roles: readonly Role[];
}

/**
 * True when the principal may call an endpoint that requires any one of
 * `required`. Admin always may. An empty list means "any authenticated
 * user" (e.g. an endpoint every logged-in user can call, whatever its roles).
 */
export function hasAnyRole(principal: Principal, required: readonly Role[]): boolean {
  if (principal.roles.includes('Admin')) return true;
  if (required.length === 0) return true;
  return required.some((role) => principal.roles.includes(role));
}

/**
 * Roles without duplicates, in ALL_ROLES order: a stored user compares equal
 * however the client ordered or repeated its roles (so an unchanged replace
 * is a no-op).
 */
export function normaliseRoles(roles: readonly Role[]): Role[] {
  return ALL_ROLES.filter((role) => roles.includes(role));
}
