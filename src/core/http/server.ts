// The Koa application and its HTTP listener. Resource routers are mounted
// under the configurable root path (clients expect `/itemsense/...`); the
// health probe lives outside it at `/healthz`, where orchestrators look.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import Koa from 'koa';
import Router from '@koa/router';
import type { Logger } from '../logger';
import { answerClientErrors } from './client-error';
import { errorMiddleware } from './errorMiddleware';
import { requestLog } from './requestLog';

export const HEALTH_PATH = '/healthz';

export interface HttpAppOptions {
  readonly logger: Logger;
  /** e.g. `/itemsense`; '' mounts the REST interface at the root. */
  readonly rootPath: string;
  /** Body of GET /healthz; `status: 'ok'` answers 200, anything else 503. */
  readonly health: () => Promise<{ readonly status: 'ok' | 'down' }>;
  /** Routers of the REST resources, mounted under rootPath. */
  readonly routers?: readonly Router[];
  /**
   * Routers outside rootPath and its JSON body parser (e.g. the broker's
   * authentication endpoints, which read their own form bodies).
   */
  readonly outerRouters?: readonly Router[];
  /**
   * Checked before every request under rootPath: an error to answer at once
   * (e.g. 503 while Redis is not reachable), or undefined to go on.
   */
  readonly refuse?: (path: string) => Error | undefined;
}

export function createHttpApp(opts: HttpAppOptions): Koa {
  const app = new Koa({ proxy: false });
  // Our error middleware answers every request error; this only sees errors
  // that happen after a response started (client aborts, stream failures).
  // Registering it also stops Koa from printing them with console.error.
  app.on('error', (err: unknown) => opts.logger.warn('http error after response', { err }));

  app.use(requestLog(opts.logger));
  app.use(errorMiddleware(opts.logger));

  const root = new Router();
  root.get(HEALTH_PATH, async (ctx) => {
    const report = await opts.health();
    ctx.status = report.status === 'ok' ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = report;
  });
  app.use(root.routes());
  app.use(root.allowedMethods());
  for (const r of opts.outerRouters ?? []) {
    app.use(r.routes());
    app.use(r.allowedMethods());
  }

  // Each route reads its own body, after its guard (routes.ts).
  const api = opts.rootPath === '' ? new Router() : new Router({ prefix: opts.rootPath });
  const refuse = opts.refuse;
  if (refuse) {
    api.use(async (ctx, next) => {
      const err = refuse(ctx.path);
      if (err) throw err;
      await next();
    });
  }
  for (const r of opts.routers ?? []) api.use(r.routes(), r.allowedMethods());
  app.use(api.routes());
  app.use(api.allowedMethods());
  return app;
}

export interface HttpListener {
  readonly port: number;
  readonly server: http.Server;
  /**
   * Stops accepting connections and waits for in-flight requests. After
   * `graceMs` the remaining connections are cut, so a stuck client cannot hold
   * the shutdown of everything behind it.
   */
  close(graceMs: number): Promise<void>;
}

export async function listen(app: Koa, host: string, port: number, logger: Logger): Promise<HttpListener> {
  let closing = false;
  const inFlight = new Set<http.ServerResponse>();
  // Connections with a response under way: a parser error there cannot be answered.
  const answering = new WeakSet<Duplex>();
  const handle = app.callback();
  const server = http.createServer((req, res) => {
    inFlight.add(res);
    answering.add(req.socket);
    res.once('close', () => {
      inFlight.delete(res);
      answering.delete(req.socket);
      // The keep-alive socket of a request that was in flight when closing
      // began is idle only now; server.close() waits for it otherwise.
      if (closing) setImmediate(() => server.closeIdleConnections());
    });
    if (closing) res.setHeader('Connection', 'close');
    void handle(req, res);
  });
  answerClientErrors(server, logger, (socket) => answering.has(socket));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  logger.info('http listening', { host, port: bound });

  return {
    port: bound,
    server,
    close: (graceMs) =>
      new Promise<void>((resolve, reject) => {
        closing = true;
        // Responses not yet started end their connection when they finish.
        for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
        logger.info('http closing', { inFlight: inFlight.size, graceMs });
        const force = setTimeout(() => {
          logger.warn('http grace period over, closing remaining connections', { graceMs, inFlight: inFlight.size });
          server.closeAllConnections();
        }, graceMs);
        server.close((err) => {
          clearTimeout(force);
          if (err) reject(err);
          else resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
