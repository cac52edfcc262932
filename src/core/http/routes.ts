// Every REST route is declared once, with its roles and documentation, in a
// RouteTable. The router and the OpenAPI document are both built from it, so
// they cannot drift apart; a test checks the router holds nothing else.
// Each route runs: its guard, the check of its path parameters, its own
// authentication if any (agents), and only then reads its body, so a request
// that is refused costs no more than reading its headers.
import Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import { MAX_NAME_LENGTH, MAX_QUERY_VALUE_LENGTH, nameProblem, queryValueProblem } from '../text';
import { BODY_LIMITS, jsonBody, type BodyLimits, type BodySize, type QuickJson } from './body';
import { badRequest } from './errors';

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
  /**
   * The operation's name in the OpenAPI document, which client generators
   * turn into method names: unique, stable once published, lowerCamelCase,
   * a verb first. Verb-style paths take their own verb and the resource
   * (`createFacility`, `showFacilities`, `showItems`); REST-style paths the
   * HTTP-like verbs (`getThreshold`, `listThresholds`, `updateThreshold`).
   */
  readonly operationId: string;
  /** Koa-style path relative to the root path, e.g. `/configuration/v1/facilities/show/:facilityName`. */
  readonly path: string;
  /** Roles allowed (Admin always is); 'public' means no authentication at all. */
  readonly roles: readonly string[] | 'public';
  readonly summary: string;
  readonly tag: string;
  readonly query?: readonly RouteParam[];
  /** JSON Schema of the request body, when there is one. */
  readonly body?: Record<string, unknown>;
  /** Size class of the body (BodyLimits); 'config' unless said. */
  readonly bodySize?: BodySize;
  /** The route's own one-pass reading of its usual body (QuickJson); anything else is parsed the general way. */
  readonly quickBody?: QuickJson;
  /** status -> description, or description and body schema */
  readonly responses: Readonly<Record<number, RouteResponse>>;
  /** Media type of the 200 answer when it is not JSON (e.g. `text/event-stream`). */
  readonly produces?: string;
}

export type Guard = (roles: readonly string[] | 'public') => Middleware;

export class RouteTable {
  readonly router = new Router();
  private readonly specs: RouteSpec[] = [];

  constructor(
    private readonly guard: Guard,
    private readonly bodyLimits: BodyLimits = BODY_LIMITS,
  ) {}

  /**
   * @param authenticate a route's own credential check (agents), run after
   *   the role guard and before the body is read.
   */
  add(spec: RouteSpec, handler: Middleware, authenticate?: Middleware): this {
    this.specs.push(spec);
    const steps = [this.guard(spec.roles), checkPathAndQuery, ...(authenticate ? [authenticate] : []), jsonBody(this.bodyLimits[spec.bodySize ?? 'config'], spec.quickBody), handler];
    this.router[spec.method](spec.path, ...steps);
    return this;
  }

  get routes(): readonly RouteSpec[] {
    return this.specs;
  }
}

/**
 * Every path parameter is a name or id: bounded and printable (a longer one
 * would reach the event store's key limit as a stream name), answered 400
 * naming the parameter rather than a 404 or worse. Query values are one
 * bounded line of text; each route's codec checks the rest.
 */
async function checkPathAndQuery(ctx: Context, next: Next): Promise<void> {
  const params = (ctx.params ?? {}) as Record<string, string>;
  const paramErrors = Object.entries(params).flatMap(([name, value]) => {
    const reason = nameProblem(value);
    return reason === undefined ? [] : [{ path: `params.${name}`, reason }];
  });
  if (paramErrors.length > 0) throw badRequest('Invalid request path', paramErrors);
  const queryErrors = Object.entries(ctx.query).flatMap(([name, value]) =>
    [value ?? []].flat().flatMap((v) => {
      const reason = queryValueProblem(v);
      return reason === undefined ? [] : [{ path: `query.${name}`, reason }];
    }),
  );
  if (queryErrors.length > 0) throw badRequest('Invalid request query', queryErrors);
  await next();
}

/** A string query schema states the length every query value is held to (checkPathAndQuery). */
const withQueryLimit = (schema: Record<string, unknown>): Record<string, unknown> =>
  schema['type'] === 'string' && schema['enum'] === undefined && schema['maxLength'] === undefined ? { ...schema, maxLength: MAX_QUERY_VALUE_LENGTH } : schema;

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
 * What the steps every route runs (add) answer on any route of a kind, so
 * no route need repeat it: checkPathAndQuery's 400, the guard's 401/403 (429
 * while the login throttle holds the caller back),
 * jsonBody's 400/413/415 on a method that may carry a body, and 503 on
 * every route (Redis or the event store not reachable, the event store's
 * disk full, or a read model rebuilding after Redis lost its data:
 * docs/operations.md).
 */
function implicitResponses(r: RouteSpec): Record<number, RouteResponse> {
  const implicit: Record<number, RouteResponse> = {
    400: 'a path parameter or query value is not a bounded line of printable text',
    503: 'Redis or the event store is not reachable, the event store has no disk space left for a change, or a read model this needs is rebuilding from the event log; retry after Retry-After seconds',
  };
  if (r.method === 'post' || r.method === 'put') {
    Object.assign(implicit, { 400: 'invalid input: the body is not valid JSON or does not decode, or a bad path parameter or query value', 413: 'the body is over the size limit of the route', 415: 'a body that is not sent as JSON' });
  }
  if (r.roles !== 'public') {
    Object.assign(implicit, { 401: 'no or unknown credentials', 403: 'a role this route needs is missing', 429: 'logins of this user name or address are held back after failures (Retry-After)' });
  }
  return implicit;
}

function openApiResponse(r: RouteSpec, status: number, response: RouteResponse): Record<string, unknown> {
  const { description, schema } = typeof response === 'string' ? { description: response, schema: undefined } : response;
  if (status === 200 && r.produces) return { description, content: { [r.produces]: { schema: schema ?? { type: 'string' } } } };
  const body = status >= 400 ? { $ref: '#/components/schemas/Error' } : schema;
  return { description, ...(body ? { content: { 'application/json': { schema: body } } } : {}) };
}

/** The version of the REST interface: the OpenAPI document's, GET /about/v1/info's and the console's. */
export const API_VERSION = '1.0.0';

/** The OpenAPI 3 document of every route in the tables. */
export function openApiDocument(routes: readonly RouteSpec[], rootPath: string, version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = toOpenApiPath(r.path);
    const pathParams = [...r.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string', minLength: 1, maxLength: MAX_NAME_LENGTH },
    }));
    const query = (r.query ?? []).map((q) => ({
      name: q.name,
      in: 'query',
      required: q.required ?? false,
      description: q.description,
      schema: withQueryLimit(q.schema ?? { type: 'string' }),
    }));
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries({ ...implicitResponses(r), ...r.responses })) responses[status] = openApiResponse(r, Number(status), response);
    (paths[path] ??= {})[r.method] = {
      operationId: r.operationId,
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
