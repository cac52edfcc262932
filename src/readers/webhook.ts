// The endpoint Impinj IoT readers with delivery WEBHOOK post their events to
// (docs/readers.md): POST <root>/agent/v1/readers/{readerName}/iot/events, a JSON
// array of events (or one event), authenticated per reader with HTTP Basic:
// the reader's name and a secret the readers role issued for it (the
// reader's agent secret: only its SHA-256 is stored) and wrote into the
// reader's webhook settings. The reads are stored as one TagsReported before
// the 2xx answer, so a delivery the reader was told was received is never lost.
import type { Context, Middleware, Next } from 'koa';
import type { RouteTable } from '../core/http/routes';
import { forbidden, unauthorized, unavailable } from '../core/http/errors';
import { nameBasedUuid } from '../core/digest';
import type { AppDeps } from '../slice';
import { acceptReport, ReportRefused, storedSecretDigest, secretMatches, type JobsForAgents } from '../agents';
import { ReadBatch, type Batch } from './batch';
import { tagReadOf } from './iot';
import { dropReads, readsIn, type DropReason } from './job-side';

export const WEBHOOK_PATH = '/agent/v1/readers/:readerName/iot/events';
export const webhookPathOf = (reader: string): string => `/agent/v1/readers/${encodeURIComponent(reader)}/iot/events`;
const CHALLENGE = 'Basic realm="tagtrail-readers"';

function basicOf(header: string | undefined): { user: string; password: string } | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!m) return undefined;
  const text = Buffer.from(m[1] as string, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  return colon <= 0 ? undefined : { user: text.slice(0, colon), password: text.slice(colon + 1) };
}

function webhookGuard(deps: AppDeps): Middleware {
  return async (ctx: Context, next: Next): Promise<void> => {
    const creds = basicOf(ctx.get('Authorization') || undefined);
    const refuse = (message: string): never => {
      ctx.set('WWW-Authenticate', CHALLENGE);
      throw Object.assign(unauthorized(message), { headers: { 'WWW-Authenticate': CHALLENGE } });
    };
    if (!creds) refuse('Basic credentials of the reader required');
    const { user, password } = creds as { user: string; password: string };
    if (!secretMatches(password, await storedSecretDigest(deps, user))) refuse('Invalid reader credentials');
    if (user !== String(ctx.params['readerName'])) throw forbidden(`reader ${JSON.stringify(user)} cannot post for reader ${JSON.stringify(ctx.params['readerName'])}`);
    await next();
  };
}

export function registerWebhookRoute(table: RouteTable, deps: AppDeps, jobs: JobsForAgents): void {
  table.add(
    {
      method: 'post',
      operationId: 'receiveIotReaderEvents',
      path: WEBHOOK_PATH,
      roles: 'public',
      tag: 'Readers',
      summary: 'Tag events of an Impinj IoT reader (its webhook) [Authorization: Basic readerName:secret the readers role set on the reader]',
      body: { type: 'array', items: { type: 'object' }, description: 'events as the reader sends them (a single event object is accepted too)' },
      responses: { 204: 'stored (or dropped and counted: the reader is in no job, or no longer in the job)', 401: 'no or invalid reader credentials', 403: 'the path names another reader', 503: 'not stored now (the reader\'s start in its job not recorded yet, a read model rebuilding, a dependency away): send the events again' },
    },
    async (ctx) => {
      const reader = String(ctx.params['readerName']);
      const body: unknown = ctx.request.body;
      const events = Array.isArray(body) ? body : [body];
      const batch = new ReadBatch();
      batch.add(events.map(tagReadOf).filter((r) => r !== null), Date.now());
      const taken = batch.take();
      if (taken !== null) await storeDelivery(deps, jobs, reader, taken, JSON.stringify(events));
      ctx.status = 204;
    },
    webhookGuard(deps),
  );
}

/**
 * A delivery's reads, stored in the reader's job before the answer. A reader in
 * no job, or no longer in the job (a final refusal): dropped and counted, and
 * answered 204 (sending them again would not help). Its start in the job not
 * recorded yet: 503, the reader sends them again. The reportId comes from the
 * delivery, so a delivery sent again after an answer the reader did not get
 * (the store had it) is answered as stored, not stored twice.
 */
async function storeDelivery(deps: AppDeps, jobs: JobsForAgents, reader: string, taken: Batch, text: string): Promise<void> {
  const dropped = (reason: DropReason, jobId: string | null, detail: string): void =>
    dropReads({ logger: deps.logger, reader }, reason, { jobId, observations: taken.observations.length, reads: readsIn(taken.observations), detail });
  const assignment = await jobs.reportTargetFor(deps, reader);
  if (assignment === undefined) return dropped('NOT_ASSIGNED', null, 'a webhook delivery while the reader is in no job');
  if (!assignment.acknowledged) throw unavailable(`The start of reader ${reader} in job ${assignment.jobId} is not recorded yet; send the events again`, 1);
  const report = { reportId: nameBasedUuid(reader, assignment.jobId, text), jobId: assignment.jobId, from: new Date(taken.fromMs).toISOString(), to: new Date(taken.toMs).toISOString(), observations: taken.observations };
  try {
    await acceptReport(deps, jobs, reader, report);
  } catch (err) {
    if (err instanceof ReportRefused && err.final) return dropped(err.reason, assignment.jobId, err.message);
    throw err;
  }
}
