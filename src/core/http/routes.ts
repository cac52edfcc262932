// Every REST route is declared once, with its roles and documentation, in a
// RouteTable. The router and the OpenAPI document are both built from it, so
// they cannot drift apart; a test checks the router holds nothing else.
import Router from '@koa/router';
import type { Middleware } from 'koa';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

export interface RouteParam {
  readonly name: string;
  readonly description: string;
  readonly required?: boolean;
  readonly schema?: Record<string, unknown>;
}

export interface RouteSpec {
  readonly method: HttpMethod;
  /** Koa-style path relative to the root path, e.g. `/configuration/v1/facilities/show/:facilityName`. */
  readonly path: string;
  /** Roles allowed (Admin always is); 'public' means no authentication at all. */
  readonly roles: readonly string[] | 'public';
  readonly summary: string;
  readonly tag: string;
  readonly query?: readonly RouteParam[];
  /** JSON Schema of the request body, when there is one. */
  readonly body?: Record<string, unknown>;
  /** status -> description */
  readonly responses: Readonly<Record<number, string>>;
  /** Media type of the 200 answer when it is not JSON (e.g. `text/event-stream`). */
  readonly produces?: string;
}

export type Guard = (roles: readonly string[] | 'public') => Middleware;

export class RouteTable {
  readonly router = new Router();
  private readonly specs: RouteSpec[] = [];

  constructor(private readonly guard: Guard) {}

  add(spec: RouteSpec, handler: Middleware): this {
    this.specs.push(spec);
    this.router[spec.method](spec.path, this.guard(spec.roles), handler);
    return this;
  }

  get routes(): readonly RouteSpec[] {
    return this.specs;
  }
}

const toOpenApiPath = (path: string): string => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** The OpenAPI 3 document of every route in the tables. */
export function openApiDocument(routes: readonly RouteSpec[], rootPath: string, version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = toOpenApiPath(r.path);
    const pathParams = [...r.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const query = (r.query ?? []).map((q) => ({
      name: q.name,
      in: 'query',
      required: q.required ?? false,
      description: q.description,
      schema: q.schema ?? { type: 'string' },
    }));
    const responses: Record<string, unknown> = {};
    for (const [status, description] of Object.entries(r.responses)) {
      responses[status] = status === '200' && r.produces ? { description, content: { [r.produces]: { schema: { type: 'string' } } } } : { description };
    }
    (paths[path] ??= {})[r.method] = {
      summary: r.summary,
      tags: [r.tag],
      ...(r.roles === 'public' ? { security: [] } : { 'x-roles': [...r.roles] }),
      parameters: [...pathParams, ...query],
      ...(r.body ? { requestBody: { required: true, content: { 'application/json': { schema: r.body } } } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'tagtrail REST interface', version },
    servers: [{ url: rootPath || '/' }],
    components: {
      securitySchemes: {
        basic: { type: 'http', scheme: 'basic' },
        token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Token {"token":"<uuid>"}' },
      },
    },
    security: [{ basic: [] }, { token: [] }],
    paths,
  };
}
