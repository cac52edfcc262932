// The REST interface: every slice's routes in one RouteTable behind
// authentication, plus the OpenAPI document generated from that table.
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { API_VERSION, RouteTable, openApiDocument, type Guard } from '../core/http/routes';
import { bodyLimitsFor } from '../core/http/body';
import type { AppDeps, Slice } from '../slice';
import { authenticate, requireRoles, type PrincipalStore } from '../auth/middleware';
import type { Role } from '../auth';
import type { PasswordVerifier } from '../auth/password';
import type { LoginThrottle } from '../auth/throttle';
import { serveMetrics } from '../core/http/metrics';

export const OPENAPI_PATH = '/openapi.json';
export const METRICS_PATH = '/metrics';

const passThrough: Middleware = async (_ctx, next) => next();
const guard: Guard = (roles) => (roles === 'public' ? passThrough : requireRoles(...(roles as Role[])));

export interface Api {
  readonly router: Router;
  readonly table: RouteTable;
}

/** `verifier`: shared with other password checks (the broker's login) so they share one cache. */
export function buildApi(
  slices: readonly Slice[],
  deps: AppDeps,
  principals: PrincipalStore,
  rootPath: string,
  verifier?: PasswordVerifier,
  throttle?: LoginThrottle,
): Api {
  const table = new RouteTable(guard, bodyLimitsFor(deps.maxAppendSize));
  for (const slice of slices) slice.register(table, deps);
  table.add(
    {
      method: 'get',
      operationId: 'showOpenApiDocument',
      path: OPENAPI_PATH,
      roles: 'public',
      tag: 'Meta',
      summary: 'The OpenAPI 3 document of this interface',
      responses: {
        200: {
          description: 'OpenAPI document',
          schema: { type: 'object', required: ['openapi', 'info', 'paths', 'components'], properties: { openapi: { type: 'string', enum: ['3.0.3'] }, info: { type: 'object' }, paths: { type: 'object' }, components: { type: 'object' } } },
        },
      },
    },
    async (ctx) => {
      ctx.body = openApiDocument(table.routes, rootPath, API_VERSION);
    },
  );
  // Admin only on this port: the metrics name readers and show the load of
  // the site. METRICS_PORT serves them without credentials on a port of its own.
  table.add(
    {
      method: 'get',
      operationId: 'showMetrics',
      path: METRICS_PATH,
      roles: ['Admin'],
      tag: 'Meta',
      summary: 'Metrics of this process in the Prometheus text format',
      produces: 'text/plain',
      responses: { 200: 'Prometheus text exposition format 0.0.4' },
    },
    serveMetrics,
  );
  const router = new Router();
  router.use(authenticate(principals, { logger: deps.logger.child('auth'), ...(verifier ? { verifier } : {}), ...(throttle ? { throttle } : {}) }));
  router.use(table.router.routes(), table.router.allowedMethods());
  return { router, table };
}

/** Runs every slice's idempotent first-start work. */
export async function bootstrapSlices(slices: readonly Slice[], deps: AppDeps): Promise<void> {
  // Decisions such as "no user exists yet" must not be taken on a read model
  // that is still replaying the log.
  await deps.readModelReady;
  for (const slice of slices) {
    if (slice.bootstrap) {
      await slice.bootstrap(deps);
      deps.logger.debug('slice bootstrapped', { slice: slice.name });
    }
  }
}
