// Turns every failure into the JSON error body clients parse:
// `{message, errors: [{path, reason, message}]}` (each field error carries
// its text as `reason`, our architecture's name, and as `message`, the name
// the interface's clients look for). Deliberate errors (ApiError, and
// http-errors marked `expose` such as koa-body's 413/415) keep their status
// and message; anything else is a 500 with a generic message, details logged.
import { STATUS_CODES } from 'node:http';
import { DeadlineExceededError, MaxAppendSizeExceededError, UnavailableError } from '@eventstore/db-client';
import type { Context, Next } from 'koa';
import { isEventStoreFull } from '../eventstore';
import type { Logger } from '../logger';
import { redactPath } from '../redact';
import { isRedisUnavailable } from '../redis/connect';
import { redisDown } from '../redis/readiness';
import { ApiError, unavailable, type FieldError } from './errors';

/** Retry-After of a request the event store could not serve (it restarts, or a cluster elects a leader). */
const EVENT_STORE_RETRY_AFTER_S = 2;
/** Retry-After of a write the event store had no disk space for: freeing space takes a person, not a moment. */
const EVENT_STORE_FULL_RETRY_AFTER_S = 30;

/**
 * Outages of a dependency, as the 503 a client retries: a connection lost
 * mid-request is the service's outage, not a bug, and not a 500.
 */
function asOutage(err: unknown): unknown {
  if (isRedisUnavailable(err)) return redisDown();
  if (err instanceof UnavailableError || err instanceof DeadlineExceededError) return unavailable('The event store is not reachable; retry shortly', EVENT_STORE_RETRY_AFTER_S);
  if (isEventStoreFull(err)) {
    return unavailable('The event store has no space left on its disk: nothing was written; retry once space is freed', EVENT_STORE_FULL_RETRY_AFTER_S, [
      { path: 'eventStore', reason: 'no space left on its disk' },
    ]);
  }
  return err;
}

export interface ErrorBody {
  message: string;
  errors: Array<FieldError & { message: string }>;
}

interface ExposedHttpError {
  status: number;
  message: string;
  expose: true;
}

function isExposedHttpError(err: unknown): err is ExposedHttpError {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as Record<string, unknown>;
  return e['expose'] === true && typeof e['status'] === 'number' && typeof e['message'] === 'string';
}

function reply(ctx: Context, status: number, body: ErrorBody): void {
  // A refused request whose body was not read (401, 413, 415, ...): close
  // the connection after the answer rather than receive the rest of it.
  if (!ctx.req.complete) ctx.set('Connection', 'close');
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = body;
}

export function errorMiddleware(logger: Logger) {
  return async function handleErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
      // Unrouted paths and router 405/501 replies come back without a body.
      if (ctx.status >= 400 && (ctx.body === undefined || ctx.body === null)) {
        const text = STATUS_CODES[ctx.status] ?? 'Error';
        const message = ctx.status === 404 ? `Not found: ${ctx.method} ${ctx.path}` : text;
        reply(ctx, ctx.status, { message, errors: [] });
      }
    } catch (caught) {
      const err = asOutage(caught);
      if (err instanceof ApiError) {
        if (err.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(err.retryAfterSeconds));
        reply(ctx, err.status, { message: err.message, errors: err.errors.map((e) => ({ ...e, message: e.reason })) });
      } else if (err instanceof MaxAppendSizeExceededError) {
        // Every append a request makes carries what the client sent.
        const message = `The request is too large to store: the event store takes at most ${err.maxAppendSize} bytes in one append`;
        reply(ctx, 413, { message, errors: [] });
      } else if (isExposedHttpError(err) && err.status >= 400 && err.status < 500) {
        reply(ctx, err.status, { message: err.message, errors: [] });
      } else {
        logger.error('request failed', { method: ctx.method, path: redactPath(ctx.path), requestId: ctx.state['requestId'], err });
        reply(ctx, 500, { message: 'Internal server error', errors: [] });
      }
    }
  };
}
