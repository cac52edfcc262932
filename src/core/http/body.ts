// The request body, read by each route after its guard: a request without
// valid credentials or roles is answered from its headers alone, its body
// never read nor parsed. Each route has a size class (configuration
// documents are small; agent reports and configuration archives large), and
// what reaches a decoder is JSON it can walk safely: bounded depth (io-ts and
// JSON.stringify recurse), well-formed Unicode, no control characters but tab
// and line breaks, no `__proto__` keys (a later object spread would turn one
// into a prototype).
import type { Context, Middleware, Next } from 'koa';
import { koaBody } from 'koa-body';
import { textProblem } from '../text';
import { badRequest, payloadTooLarge, unsupportedMediaType, type FieldError } from './errors';

/** Largest body in bytes, per size class of a route. */
export interface BodyLimits {
  /**
   * Configuration documents and commands: at most half of what the event
   * store takes in one append, so that a document that passed validation is
   * not refused by the store after something (an id) was already allocated.
   */
  readonly config: number;
  /** Agent tag reports and health batches, configuration archives. */
  readonly bulk: number;
}
export type BodySize = keyof BodyLimits;

const DEFAULT_APPEND_SIZE = 1024 * 1024;

/** The limits for an event store taking `maxAppendSize` bytes per append (1 MiB: 512 KiB and 10 MiB). */
export function bodyLimitsFor(maxAppendSize = DEFAULT_APPEND_SIZE): BodyLimits {
  return { config: Math.min(512 * 1024, Math.floor(maxAppendSize / 2)), bulk: 10 * 1024 * 1024 };
}

export const BODY_LIMITS: BodyLimits = bodyLimitsFor();

/** Deepest nesting of arrays and objects accepted in a body (the deepest document we take is about 8). */
export const MAX_JSON_DEPTH = 64;

export const JSON_TYPE = 'application/json';
const JSON_TYPES = [JSON_TYPE, '+json'];
const READ_METHODS = new Set(['POST', 'PUT', 'PATCH']);

export const sizeText = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB` : `${Math.round(bytes / 1024)} KiB`;

/** A container met on the walk; its path is spelled only when a problem is found under it. */
interface Visit {
  readonly value: object;
  readonly parent: Visit | undefined;
  readonly key: string | number;
  readonly depth: number;
}

function pathOf(at: Visit, key?: string | number): string {
  const keys: Array<string | number> = key === undefined ? [] : [key];
  for (let v: Visit | undefined = at; v !== undefined; v = v.parent) keys.push(v.key);
  return keys.reverse().join('.');
}

/** A child of `parent`: a string is checked at once, a container is queued; the problem, if any. */
function visitChild(value: unknown, parent: Visit, key: string | number, stack: Visit[]): FieldError | undefined {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? { path: pathOf(parent, key), reason: problem } : undefined;
  }
  if (typeof value === 'object' && value !== null) stack.push({ value, parent, key, depth: parent.depth + 1 });
  return undefined;
}

/**
 * The first problem of a parsed body: too deep, a `__proto__` key, a string
 * or key that is not text. Iterative, so a hostile depth cannot overflow it.
 * It runs on every report of thousands of observations: one record per
 * array or object and none per value, and paths spelled only for a problem.
 */
export function jsonShapeProblem(root: unknown, where = 'body'): FieldError | undefined {
  if (typeof root !== 'object' || root === null) {
    const problem = typeof root === 'string' ? textProblem(root) : undefined;
    return problem ? { path: where, reason: problem } : undefined;
  }
  const stack: Visit[] = [{ value: root, parent: undefined, key: where, depth: 0 }];
  for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
    if (at.depth >= MAX_JSON_DEPTH) return { path: pathOf(at), reason: `is nested deeper than ${MAX_JSON_DEPTH} levels` };
    const { value } = at;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const problem = visitChild(value[i], at, i, stack);
        if (problem) return problem;
      }
      continue;
    }
    for (const k of Object.keys(value)) {
      if (k === '__proto__') return { path: pathOf(at, k), reason: 'is not an accepted key' };
      const keyProblem = textProblem(k);
      if (keyProblem) return { path: pathOf(at), reason: `has a key that ${keyProblem}` };
      const problem = visitChild((value as Record<string, unknown>)[k], at, k, stack);
      if (problem) return problem;
    }
  }
  return undefined;
}

// Not type-is's test: fetch and curl send `Content-Length: 0` on a POST
// without a body, which is no body to read.
const hasBody = (ctx: Context): boolean => ctx.get('Transfer-Encoding') !== '' || Number(ctx.get('Content-Length')) > 0;

// co-body reports a body over the limit as an http-error 413, JSON.parse a
// malformed one as a bare SyntaxError; both become our error shape.
function bodyError(limit: number) {
  return (err: Error): never => {
    const status = (err as { status?: unknown }).status;
    if (status === 413) throw payloadTooLarge(`The request body exceeds ${sizeText(limit)}, the limit of this route`);
    if (err instanceof SyntaxError || status === 400) throw badRequest(`Malformed JSON body: ${err.message.slice(0, 200)}`);
    throw err;
  };
}

/**
 * A route's own reading of the usual shape of its parsed body (a tag report
 * of thousands of observations): the value its handler takes, decided in
 * one pass, or undefined for anything it does not take exactly as the
 * general checks would, which then get the body (and give its errors).
 * What it takes it must have checked as the shape check would.
 */
export type QuickJson = (parsed: unknown) => unknown;

// What co-body's JSON reader held a body to: an object or an array.
const OBJECT_OR_ARRAY = /^[ \t\n\r]*[[{]/;

/**
 * JSON.parse, then the route's quick reading or the shape check (which also
 * refuses the `__proto__` keys JSON.parse keeps as plain properties). An
 * empty body is {}.
 */
export function parseJsonBody(text: string, quick?: QuickJson): unknown {
  if (text === '') return {};
  if (!OBJECT_OR_ARRAY.test(text)) throw new SyntaxError('invalid JSON, only supports object and array');
  const value: unknown = JSON.parse(text);
  const taken = quick?.(value);
  if (taken !== undefined) return taken;
  const problem = jsonShapeProblem(value);
  if (problem) throw badRequest('Invalid request body', [problem]);
  return value;
}

/**
 * Reads and checks the JSON body of POST/PUT/PATCH into `ctx.request.body`;
 * leaves it undefined when there is none. A body that is not declared JSON
 * answers 415: it was silently ignored before, which turned a queue filter
 * into "everything" and a time sync for one reader into one for all. The
 * body is read as text (koa-body) and parsed by parseJsonBody.
 */
export function jsonBody(limit: number, quick?: QuickJson): Middleware {
  const onError = bodyError(limit);
  const read = koaBody({ json: false, text: true, textTypes: JSON_TYPES, textLimit: limit, multipart: false, urlencoded: false, onError });
  return async function readJsonBody(ctx: Context, next: Next): Promise<void> {
    if (!READ_METHODS.has(ctx.method) || !hasBody(ctx)) return next();
    if (!ctx.is(JSON_TYPES)) {
      const sent = ctx.get('Content-Type');
      throw unsupportedMediaType(
        `The request body must be JSON, sent as Content-Type: ${JSON_TYPE} (got ${sent ? sent.slice(0, 100) : 'no Content-Type'}); with curl -d, add -H 'Content-Type: ${JSON_TYPE}'`,
      );
    }
    await read(ctx, async () => undefined);
    const text = ctx.request.body as unknown;
    if (typeof text !== 'string') throw new Error('koa-body did not read the body as text');
    try {
      // A quick reading's value is what its own handler takes, not necessarily plain JSON.
      ctx.request.body = parseJsonBody(text, quick) as typeof ctx.request.body;
    } catch (err) {
      if (err instanceof SyntaxError) onError(err);
      throw err;
    }
    await next();
  };
}
