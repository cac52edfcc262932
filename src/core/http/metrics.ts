// GET /metrics: the Prometheus text exposition of this process. Served on the
// API port behind the Admin role (api.ts) and, when METRICS_PORT is set, by
// a listener of its own without credentials, which every role's process can
// run (the REST interface runs only in the api role).
import Koa, { type Context } from 'koa';
import Router from '@koa/router';
import type { Logger } from '../logger';
import { scrapeMetrics } from '../metrics';
import { errorMiddleware } from './errorMiddleware';

export async function serveMetrics(ctx: Context): Promise<void> {
  const { contentType, body } = await scrapeMetrics();
  ctx.set('Cache-Control', 'no-store');
  ctx.type = contentType;
  ctx.body = body;
}

/** The metrics listener's application: `GET /metrics` and nothing else (404 JSON otherwise). */
export function createMetricsApp(logger: Logger): Koa {
  const app = new Koa({ proxy: false });
  app.on('error', (err: unknown) => logger.warn('metrics http error after response', { err }));
  app.use(errorMiddleware(logger));
  const router = new Router();
  router.get('/metrics', serveMetrics);
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
