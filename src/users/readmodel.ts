// Reads of the users read model (`<prefix>v1:config:user`, written by
// the users part of the config projection, projections/config/auth.ts). Only name and roles leave this module: the stored
// password hash is decoded nowhere else than by authentication.
import * as t from 'io-ts';
import type { AppDeps } from '../slice';
import { decodeStored } from '../core/stored-json';
import { Role } from '../auth';
import { USER_KIND } from '../auth';
import { CONFIG_READ_MODEL } from '../core/resource/readmodel';
import { ReadModelGate } from '../core/redis/readiness';

const UserView = t.type({ name: t.string, roles: t.array(Role) });
export type UserView = t.TypeOf<typeof UserView>;

type Reads = Pick<AppDeps, 'redis' | 'keys'>;

function decodeUser(raw: string, name: string): UserView {
  const user = decodeStored(UserView, raw, `users read model: user ${name}`);
  // t.type keeps unknown keys (the hash among them); copy the two we mean.
  return { name: user.name, roles: user.roles };
}

export async function getUser(deps: Reads, name: string): Promise<UserView | undefined> {
  const raw = await new ReadModelGate(deps.redis, deps.keys).read(CONFIG_READ_MODEL, () => deps.redis.hGet(deps.keys.config(USER_KIND), name));
  return raw == null ? undefined : decodeUser(raw, name);
}

/** Every user, by name. */
export async function listUsers(deps: Reads): Promise<UserView[]> {
  const all = await new ReadModelGate(deps.redis, deps.keys).read(CONFIG_READ_MODEL, () => deps.redis.hGetAll(deps.keys.config(USER_KIND)));
  return Object.entries(all)
    .map(([name, raw]) => decodeUser(raw, name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** How many users other than `name` hold Admin (the last-Admin rule). */
export async function otherAdmins(deps: Reads, name: string): Promise<number> {
  return (await listUsers(deps)).filter((u) => u.name !== name && u.roles.includes('Admin')).length;
}
