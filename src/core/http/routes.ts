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

/**
 * A documented response: its description, and the JSON Schema (OpenAPI 3.0
 * dialect) of its body when it has one. Error statuses (4xx/5xx) always get
 * the error body schema; tests check every response against these.
 */
export type RouteResponse = string | { readonly description: string; readonly schema?: Record<string, unknown> };

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
  /** status -> description, or description and body schema */
  readonly responses: Readonly<Record<number, RouteResponse>>;
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

/** The body of every 4xx/5xx answer (errorMiddleware.ts). */
export const ERROR_BODY_SCHEMA: Record<string, unknown> = {
  type: 'object',
  required: ['message', 'errors'],
  properties: {
    message: { type: 'string' },
    errors: {
      type: 'array',
      description: 'one entry per offending field; empty when the error is not about a field',
      items: {
        type: 'object',
        required: ['path', 'reason', 'message'],
        properties: { path: { type: 'string', description: 'e.g. body.zones.0.name, query.pageSize' }, reason: { type: 'string' }, message: { type: 'string', description: 'the same text as reason' } },
      },
    },
  },
};

/**
 * What the shared middleware answers on any route of a kind, so every route
 * need not repeat it: the guard's 401/403, and a body that is not JSON or
 * over the size limit.
 */
function implicitResponses(r: RouteSpec): Record<number, RouteResponse> {
  const implicit: Record<number, RouteResponse> = {};
  if (r.body) Object.assign(implicit, { 400: 'the body is not valid JSON or does not decode', 413: 'the body is over the size limit' });
  if (r.roles !== 'public') Object.assign(implicit, { 401: 'no or unknown credentials', 403: 'a role this route needs is missing' });
  return implicit;
}

function openApiResponse(status: number, response: RouteResponse): Record<string, unknown> {
  const { description, schema } = typeof response === 'string' ? { description: response, schema: undefined } : response;
  const body = status >= 400 ? { $ref: '#/components/schemas/Error' } : schema;
  return { description, ...(body ? { content: { 'application/json': { schema: body } } } : {}) };
}

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
    for (const [status, response] of Object.entries({ ...implicitResponses(r), ...r.responses })) responses[status] = openApiResponse(Number(status), response);
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
      schemas: { Error: ERROR_BODY_SCHEMA },
      securitySchemes: {
        basic: { type: 'http', scheme: 'basic' },
        token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Token {"token":"<uuid>"}' },
      },
    },
    security: [{ basic: [] }, { token: [] }],
    paths,
  };
}
