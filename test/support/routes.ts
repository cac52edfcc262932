// The router layers of the real API, built exactly as the process builds them
// but without serving: what the OpenAPI sync and role-matrix tests compare
// against.
import { buildApi } from '../../src/app/api';
import { SLICES } from '../../src/app/slices';
import type { AppDeps } from '../../src/core/slice';
import { createLogger } from '../../src/core/logger';
import type { PrincipalStore } from '../../src/auth/middleware';

export async function buildRouteInventory(): Promise<Array<{ path: string; methods: string[] }>> {
  // Registration only reads deps inside handlers; none run here.
  const deps = { logger: createLogger('inventory'), facilityUsage: [] } as unknown as AppDeps;
  const store = {} as PrincipalStore;
  const api = buildApi(SLICES, deps, store, '');
  return api.table.router.stack.map((l) => ({ path: String(l.path), methods: l.methods }));
}

export async function routeSpecs() {
  const deps = { logger: createLogger('inventory'), facilityUsage: [] } as unknown as AppDeps;
  return buildApi(SLICES, deps, {} as PrincipalStore, '').table.routes;
}
