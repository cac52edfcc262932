// /control/v1/jobs: start, stop, show, show all (filters), stats.
import { randomUUID } from 'node:crypto';
import * as t from 'io-ts';
import * as E from 'fp-ts/Either';
import { decodeInput } from '../core/http/decode';
import { notFound } from '../core/http/errors';
import type { RouteTable } from '../core/http/routes';
import type { ProjectionWaiter } from '../core/resource/consistency';
import { commandMetadata } from '../core/resource/routes';
import type { AppDeps } from '../slice';
import { facilityKind } from '../facilities';
import { recipeKind } from '../recipes';
import { runCommand } from '../core/command';
import { onJob } from './commands';
import { jobsReadModel, jobsWaiter, readersFor } from './context';
import type { JobsReadModel } from './readmodel';
import type { JobCommand } from './decide';
import { readerConflicts } from './readers';
import { JobStartBody, jobStartBodySchema, validateJobStart } from './request';
import { JOB_LIST_PARAMS, JobListQuery, queryJobs, toStatusObject } from './view';
import { jobStatsSchema, jobStatusSchema } from './schema';

export const JOBS_BASE = '/control/v1/jobs';
export const JOB_ROLES = ['JobRunner'];
const TAG = 'Jobs';

const StopQuery = t.partial({ graceful: t.keyof({ true: null, false: null }) });

export function registerJobRoutes(table: RouteTable, deps: AppDeps): void {
  const readModel = jobsReadModel(deps);
  registerJobControlRoutes(table, deps, readModel, jobsWaiter(deps));
  registerJobQueryRoutes(table, readModel);
}

/** Starting and stopping jobs. */
function registerJobControlRoutes(table: RouteTable, deps: AppDeps, readModel: JobsReadModel, waiter: ProjectionWaiter): void {
  table.add(
    {
      method: 'post',
      operationId: 'startJob',
      path: `${JOBS_BASE}/start`,
      roles: JOB_ROLES,
      tag: TAG,
      summary: 'Start a job (status WAITING until startDelay has passed)',
      body: jobStartBodySchema,
      responses: { 200: { description: 'job status object (WAITING)', schema: jobStatusSchema }, 400: 'invalid request', 409: 'a reader is in an active job (message holds JobId=<id>)' },
    },
    async (ctx) => {
      const body = decodeInput(JobStartBody, ctx.request.body, 'body');
      const [facilities, recipes] = await Promise.all([deps.readModel.list(facilityKind), deps.readModel.map(recipeKind)]);
      const request = validateJobStart(body, facilities.map((f) => f.name), new Set(recipes.keys()));
      if (E.isLeft(request)) throw request.left;
      const readerNames = (await readersFor(deps, request.right)) ?? [];
      const conflicts = readerConflicts(readerNames, await readModel.active());
      const id = randomUUID();
      const now = new Date();
      const result = await runCommand(deps.client, onJob(id), { type: 'Start', id, request: request.right, readerNames, conflicts }, { now, metadata: commandMetadata(ctx), waiter });
      if (E.isLeft(result)) throw result.left;
      ctx.body = toStatusObject(result.right.state, now);
    },
  );

  table.add(
    {
      method: 'post',
      operationId: 'stopJob',
      path: `${JOBS_BASE}/stop/:jobId`,
      roles: JOB_ROLES,
      tag: TAG,
      summary: 'Stop a job: graceful (default) lets readers finish, else it stops at once',
      query: [{ name: 'graceful', description: 'true (default) or false', schema: { type: 'boolean', default: true } }],
      responses: { 204: 'stopping or stopped', 400: 'invalid graceful', 404: 'no such job' },
    },
    async (ctx) => {
      const { graceful } = decodeInput(StopQuery, { ...ctx.query }, 'query');
      const id = String(ctx.params['jobId']);
      const stop: JobCommand = { type: 'Stop', graceful: graceful !== 'false', stopTimeoutMs: deps.config.jobs.stopTimeoutMs };
      const result = await runCommand(deps.client, onJob(id), stop, { metadata: commandMetadata(ctx), waiter });
      if (E.isLeft(result)) throw result.left;
      ctx.status = 204;
    },
  );
}

/** Job status objects and counts, from the jobs read model. */
function registerJobQueryRoutes(table: RouteTable, readModel: JobsReadModel): void {
  table.add(
    {
      method: 'get',
      operationId: 'showJob',
      path: `${JOBS_BASE}/show/:jobId`,
      roles: JOB_ROLES,
      tag: TAG,
      summary: 'One job status object',
      responses: { 200: { description: 'job status object', schema: jobStatusSchema }, 404: 'no such job' },
    },
    async (ctx) => {
      const id = String(ctx.params['jobId']);
      const job = await readModel.get(id);
      if (job === undefined) throw notFound(`job ${id} not found`);
      const beat = await readModel.lastReportTimes([id]);
      ctx.body = toStatusObject(job, new Date(), beat.get(id) ?? null);
    },
  );

  table.add(
    {
      method: 'get',
      operationId: 'showJobs',
      path: `${JOBS_BASE}/show`,
      roles: JOB_ROLES,
      tag: TAG,
      summary: 'Job status objects, filtered and sorted; only the latest N (default 1)',
      query: JOB_LIST_PARAMS,
      responses: { 200: { description: 'array of job status objects', schema: { type: 'array', items: jobStatusSchema } }, 400: 'invalid query' },
    },
    async (ctx) => {
      const q = decodeInput(JobListQuery, { ...ctx.query }, 'query');
      const jobs = queryJobs(await readModel.all(), q);
      const beats = await readModel.lastReportTimes(jobs.map((j) => j.id));
      const now = new Date();
      ctx.body = jobs.map((j) => toStatusObject(j, now, beats.get(j.id) ?? null));
    },
  );

  table.add(
    {
      method: 'get',
      operationId: 'showJobStats',
      path: `${JOBS_BASE}/stats/:jobId`,
      roles: JOB_ROLES,
      tag: TAG,
      summary: 'Counts of a job: tag reports, observations, distinct items seen (estimate)',
      responses: { 200: { description: '{jobId, reports, observations, itemsSeen, lastReportTime}', schema: jobStatsSchema }, 404: 'no such job' },
    },
    async (ctx) => {
      const id = String(ctx.params['jobId']);
      if ((await readModel.get(id)) === undefined) throw notFound(`job ${id} not found`);
      ctx.body = { jobId: id, ...(await readModel.stats(id)) };
    },
  );
}
