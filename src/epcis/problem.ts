// Errors of the EPCIS routes as RFC 7807 problem details with the EPCIS 2.0
// exception types (`epcisException:QueryParameterException`, ...), beside
// the `message` and `errors[]` every tagtrail error carries, so EPCIS
// clients and tagtrail clients both find what they look for.
import type { Context, Next } from 'koa';
import { ApiError } from '../core/http/errors';

const EXCEPTION_OF: Partial<Record<number, string>> = {
  400: 'epcisException:QueryParameterException',
  404: 'epcisException:NoSuchResourceException',
  503: 'epcisException:ImplementationException',
};

export async function epcisProblems(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
  } catch (err) {
    if (!(err instanceof ApiError) || EXCEPTION_OF[err.status] === undefined) throw err;
    if (err.retryAfterSeconds !== undefined) ctx.set('Retry-After', String(err.retryAfterSeconds));
    const detail = err.errors.length > 0 ? err.errors.map((e) => `${e.path.replace(/^query\./, '')}: ${e.reason}`).join('; ') : err.message;
    ctx.status = err.status;
    ctx.body = {
      type: EXCEPTION_OF[err.status],
      title: err.message,
      status: err.status,
      detail,
      message: err.message,
      errors: err.errors.map((e) => ({ ...e, message: e.reason })),
    };
    ctx.type = 'application/problem+json';
  }
}
