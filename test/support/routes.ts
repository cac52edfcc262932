// The router layers of the real API, built exactly as the process builds them
// but without serving: what the OpenAPI sync and role-matrix tests compare
// against.
import { buildApi } from '../../src/app/api';
import { SLICES } from '../../src/app/slices';
import type { AppDeps } from '../../src/slice';
import { createLogger } from '../../src/core/logger';
import type { PrincipalStore } from '../../src/auth/middleware';
import { RedisKeys } from '../../src/core/redis/keys';

// Registration may build helpers from deps (keys, logger); nothing is called.
function inventoryDeps(): AppDeps {
  return { logger: createLogger('inventory'), facilityUsage: [], readerUsage: [], userGone: [], keys: new RedisKeys('inventory:') } as unknown as AppDeps;
}

export async function buildRouteInventory(): Promise<Array<{ path: string; methods: string[] }>> {
  // Registration only reads deps inside handlers; none run here.
  const deps = inventoryDeps();
  const store = {} as PrincipalStore;
  const api = buildApi(SLICES, deps, store, '');
  return api.table.router.stack.map((l) => ({ path: String(l.path), methods: l.methods }));
}

/** Every RouteSpec of the real API, in registration order (synchronous: for building test cases). */
export function routeTableSpecs() {
  return buildApi(SLICES, inventoryDeps(), {} as PrincipalStore, '').table.routes;
}

export async function routeSpecs() {
  return routeTableSpecs();
}
