// One JSON log line per request (debug; 5xx at warn), with a request id that is also returned to
// the client (X-Request-Id) so a support case can be matched to the logs,
// and the request's duration in the HTTP metrics (../metrics.ts).
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from '../logger';
import { redactPath } from '../redact';
import { metrics } from '../metrics';

/**
 * The route template the router matched (`/itemsense/data/v1/items/show/:epc`),
 * never the raw path: ids and tokens in paths would make a label per request.
 */
export function routeLabel(ctx: Context): string {
  const matched = (ctx as Context & { _matchedRoute?: unknown })._matchedRoute;
  return typeof matched === 'string' ? matched : 'unmatched';
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestLog(logger: Logger) {
  return async function logRequest(ctx: Context, next: Next): Promise<void> {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state['requestId'] = requestId;
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      metrics.httpRequests.observe({ method: ctx.method, route: routeLabel(ctx), status: String(ctx.status) }, ms / 1000);
      // Readers report and check in every few seconds and probes poll
      // health: a line per request would bury the state changes (logged at
      // info by the slices) and the per-minute ingestion summary. Requests
      // are debug; a 5xx is a warning whatever the path.
      const log = ctx.status >= 500 ? logger.warn : logger.debug;
      log('request', {
        requestId,
        method: ctx.method,
        // Never a secret: the token of validateToken/{token} is masked.
        path: redactPath(ctx.path),
        status: ctx.status,
        ms: Math.round(ms * 10) / 10,
      });
    }
  };
}
