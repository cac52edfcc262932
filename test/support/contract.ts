// Contract check of every HTTP answer the tests receive: the route that
// answered (found as the router finds it: the first route, in registration
// order, whose method and path match) must document the status, and the body
// must match the JSON Schema the OpenAPI document gives for that status.
// Unrouted paths must answer 404/405 with the error body. The test helpers
// that make HTTP calls (startTestApp's request) run every answer through
// this, so the document cannot drift from the behaviour.
import Ajv, { type ValidateFunction } from 'ajv';
import { API_VERSION, openApiDocument, type RouteSpec } from '../../src/core/http/routes';
import { routeSpecs } from './routes';

interface Operation {
  readonly method: string;
  readonly pattern: RegExp;
  readonly path: string;
  readonly responses: Record<string, { content?: { 'application/json'?: { schema?: Record<string, unknown> } } }>;
}

interface Contract {
  readonly operations: readonly Operation[];
  readonly errorSchema: ValidateFunction;
  validator(schema: Record<string, unknown>): ValidateFunction;
}

export class ContractViolation extends Error {}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const patternOf = (koaPath: string): RegExp =>
  new RegExp(`^${koaPath.split(/(:[A-Za-z0-9_]+)/).map((part) => (part.startsWith(':') ? '[^/]+' : escape(part))).join('')}/?$`);

let contract: Promise<Contract> | undefined;

async function build(): Promise<Contract> {
  const routes: readonly RouteSpec[] = await routeSpecs();
  const doc = openApiDocument(routes, '', API_VERSION) as {
    paths: Record<string, Record<string, Operation['responses'] extends infer R ? { responses: R } : never>>;
    components: Record<string, unknown>;
  };
  // OpenAPI 3.0 schema objects: `nullable` is a keyword ajv knows; formats and
  // the documentation keywords are not checked.
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ components: doc.components }, 'openapi');
  const cache = new Map<Record<string, unknown>, ValidateFunction>();
  const validator = (schema: Record<string, unknown>): ValidateFunction => {
    let v = cache.get(schema);
    if (v === undefined) {
      v = ajv.compile(toAjv(schema) as Record<string, unknown>);
      cache.set(schema, v);
    }
    return v;
  };
  const operations = routes.map((r) => {
    const path = r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    return { method: r.method.toUpperCase(), pattern: patternOf(r.path), path, responses: doc.paths[path]![r.method]!.responses };
  });
  return { operations, errorSchema: validator({ $ref: '#/components/schemas/Error' }), validator };
}

/**
 * OpenAPI 3.0 schema objects in the JSON Schema draft ajv speaks: refs into
 * the document, and draft-4 style boolean exclusiveMinimum/Maximum (beside
 * minimum/maximum) as the numbers later drafts use.
 */
function toAjv(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toAjv);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema as Record<string, unknown>)) out[k] = k === '$ref' && typeof v === 'string' ? v.replace(/^#\/components\//, 'openapi#/components/') : toAjv(v);
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof out[flag] === 'boolean') {
      if (out[flag] === true) out[flag] = out[bound];
      else delete out[flag];
      if (out[flag] !== undefined) delete out[bound];
    }
  }
  return out;
}

const describeErrors = (v: ValidateFunction): string => (v.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message ?? ''}`).join('; ');

/**
 * Throws a ContractViolation when the answer to `method path` (path relative
 * to the root path, with or without a query) breaks the OpenAPI document.
 */
export async function checkContract(method: string, path: string, status: number, body: unknown, contentType: string | null): Promise<void> {
  const c = await (contract ??= build());
  const bare = path.split('?')[0]!;
  const m = method.toUpperCase();
  // application/json, or a JSON type with a suffix (application/problem+json, application/ld+json).
  const json = /application\/([\w.-]+\+)?json/.test(contentType ?? '');
  const where = `${m} ${bare} -> ${status}`;
  const op = c.operations.find((o) => (o.method === m || (m === 'HEAD' && o.method === 'GET')) && o.pattern.test(bare));
  if (op === undefined) {
    if (status !== 404 && status !== 405) throw new ContractViolation(`${where}: no documented route, yet not 404/405`);
    if (m !== 'HEAD' && !c.errorSchema(body)) throw new ContractViolation(`${where}: error body ${describeErrors(c.errorSchema)}`);
    return;
  }
  const documented = op.responses[String(status)];
  if (documented === undefined) {
    throw new ContractViolation(`${where}: status not documented for ${op.method} ${op.path} (documents ${Object.keys(op.responses).join(', ')}); body ${JSON.stringify(body)?.slice(0, 300)}`);
  }
  const schema = documented.content?.['application/json']?.schema;
  if (schema === undefined || m === 'HEAD') return;
  if (!json) throw new ContractViolation(`${where}: documented as JSON, answered ${contentType ?? 'without a content type'}`);
  const validate = c.validator(schema);
  if (!validate(body)) throw new ContractViolation(`${where}: body does not match the schema of ${op.method} ${op.path}: ${describeErrors(validate)}; body ${JSON.stringify(body)?.slice(0, 500)}`);
}
