// Query parameters of the support endpoints, decoded to values or 400s that
// name the parameter (`query.from`), like every other input.
import { badRequest, type FieldError } from '../core/http/errors';

const DEFAULT_LOG_RANGE_MS = 60 * 60_000;

export interface LogRange {
  readonly from: Date;
  readonly to: Date;
  readonly extended: boolean;
}

function one(query: Record<string, unknown>, name: string): string | undefined {
  const v = query[name];
  if (Array.isArray(v)) return String(v[v.length - 1]);
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function time(query: Record<string, unknown>, name: string, errors: FieldError[]): Date | undefined {
  const raw = one(query, name);
  if (raw === undefined) return undefined;
  const ms = Date.parse(raw);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(raw) || !Number.isFinite(ms)) {
    errors.push({ path: `query.${name}`, reason: `must be an ISO 8601 date-time, got ${JSON.stringify(raw)}` });
    return undefined;
  }
  return new Date(ms);
}

export function booleanParam(query: Record<string, unknown>, name: string, errors: FieldError[], fallback = false): boolean {
  const raw = one(query, name);
  if (raw === undefined) return fallback;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  errors.push({ path: `query.${name}`, reason: `must be true or false, got ${JSON.stringify(raw)}` });
  return fallback;
}

/** `from`/`to` (ISO 8601; default: the hour before now) and `extended` (default false). */
export function parseLogRange(query: Record<string, unknown>, now: Date): LogRange {
  const errors: FieldError[] = [];
  const to = time(query, 'to', errors) ?? now;
  const from = time(query, 'from', errors) ?? new Date(to.getTime() - DEFAULT_LOG_RANGE_MS);
  const extended = booleanParam(query, 'extended', errors);
  if (!errors.length && from.getTime() > to.getTime()) errors.push({ path: 'query.from', reason: 'must not be after to' });
  if (errors.length) throw badRequest('Invalid log request', errors);
  return { from, to, extended };
}

/** Iteration data query: `jobId` (optional), `from`/`to` (optional). */
export function parseIterationQuery(query: Record<string, unknown>): { jobId?: string; from?: Date; to?: Date } {
  const errors: FieldError[] = [];
  const from = time(query, 'fromTime', errors);
  const to = time(query, 'toTime', errors);
  if (from && to && from.getTime() > to.getTime()) errors.push({ path: 'query.fromTime', reason: 'must not be after toTime' });
  if (errors.length) throw badRequest('Invalid iteration data request', errors);
  const jobId = one(query, 'jobId');
  return { ...(jobId !== undefined ? { jobId } : {}), ...(from ? { from } : {}), ...(to ? { to } : {}) };
}
