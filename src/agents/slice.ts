// The agent gateway (docs/agent-protocol.md): routes under /agent/v1 that
// reader agents call with `Authorization: Agent ...` (RouteTable roles
// 'public', guarded by agentGuard), plus secret issuing and report stats for
// users. The job runner is reached through JobsForAgents only.
import type { Middleware } from 'koa';
import { decodeInput } from '../core/http/decode';
import { badRequest } from '../core/http/errors';
import type { RouteSpec, RouteTable } from '../core/http/routes';
import { commandMetadata } from '../core/resource/routes';
import type { AppDeps, Slice } from '../slice';
import type { JobsForAgents } from './assignment';
import { failFeatureChange, runFeatureChange, takeFeatureChange, FeatureParams, type FeatureName } from '../readerdefinitions';
import { CheckinBody, CommandResultBody, FeatureProgressBody, normaliseReport, TagReportBody } from './codecs';
import { completeReaderCommand } from './commands';
import { acceptColumnReport, agentMetadata, columnReportOf, type ColumnReport, checkin, issueSecret, reportHealth, reportStats, storedSecretDigest } from './gateway';
import { agentGuard, agentReaderOf } from './guard';
import { HealthEventsBody } from './health-codes';
import { QuickReport, quickReport } from './report-body';
import * as schema from './schema';

export const AGENT_BASE = '/agent/v1';
const TAG = 'Agent';
/** Who may issue agent secrets and read gateway stats (Admin always may). */
export const AGENT_ADMIN_ROLES = ['ConfigManager'];

export function makeAgentsSlice(jobs: JobsForAgents, clock: () => Date = () => new Date()): Slice {
  return {
    name: 'agents',
    register(table: RouteTable, deps: AppDeps): void {
      const guard = agentGuard((reader) => storedSecretDigest(deps, reader));
      const addAgentRoute = (spec: RouteSpec, handler: Middleware): void => {
        // 'public' to the user guard; the OpenAPI summary says which credentials it takes instead.
        // The agent guard runs before the body is read: an unknown caller's report is never parsed.
        table.add({ ...spec, roles: 'public', summary: `${spec.summary} [Authorization: Agent base64(readerName:secret)]` }, handler, guard);
      };
      const routes: AgentRoutes = { deps, jobs, clock, addAgentRoute };
      registerAgentAdminRoutes(table, routes);
      registerCheckinRoutes(routes);
      registerReportRoutes(routes);
      registerProgressRoutes(routes);
    },
  };
}

/** What the route groups share: the deps and job runner their handlers call, the clock, and how an agent route is added. */
interface AgentRoutes {
  readonly deps: AppDeps;
  readonly jobs: JobsForAgents;
  readonly clock: () => Date;
  /** Adds a route agents call: public to the user guard, behind the agent guard. */
  readonly addAgentRoute: (spec: RouteSpec, handler: Middleware) => void;
}

const READERS = `${AGENT_BASE}/readers/:readerName`;
const AGENT_RESPONSES = { 401: 'no or invalid agent credentials', 403: 'the path names another reader than the authenticated one' };

/** The routes users call: issuing agent secrets and reading report stats. */
function registerAgentAdminRoutes(table: RouteTable, { deps, clock }: AgentRoutes): void {
  table.add(
    {
      method: 'put',
      operationId: 'createAgentSecret',
      path: `${READERS}/secret`,
      roles: AGENT_ADMIN_ROLES,
      tag: TAG,
      summary: "Issue a new agent secret for a reader (replaces the old one); the secret is returned only here",
      responses: { 200: { description: '{readerName, secret}', schema: schema.secretAnswerSchema }, 404: 'no such reader definition' },
    },
    async (ctx) => {
      const reader = String(ctx.params['readerName']);
      const secret = await issueSecret(deps, reader, commandMetadata(ctx), clock());
      ctx.body = { readerName: reader, secret };
    },
  );

  table.add(
    {
      method: 'get',
      operationId: 'showAgentStats',
      path: `${AGENT_BASE}/stats`,
      roles: AGENT_ADMIN_ROLES,
      tag: TAG,
      summary: 'Tag reports accepted and refused (by reason) per reader',
      responses: { 200: { description: '{readers: [{readerName, acceptedReports, refusedReports: {reason: count}}]}', schema: schema.reportStatsSchema } },
    },
    async (ctx) => {
      ctx.body = { readers: await reportStats(deps) };
    },
  );
}

/** Check-in and the acknowledgement of the job assignment it answers. */
function registerCheckinRoutes({ deps, jobs, clock, addAgentRoute }: AgentRoutes): void {
  addAgentRoute(
    {
      method: 'post',
      operationId: 'agentCheckin',
      path: `${READERS}/checkin`,
      roles: 'public',
      tag: TAG,
      summary: 'Agent check-in: answers the assignment, pending feature changes and commands',
      body: schema.checkinSchema,
      responses: { 200: { description: 'check-in answer', schema: schema.checkinAnswerSchema }, 400: 'invalid body', ...AGENT_RESPONSES },
    },
    async (ctx) => {
      const body = decodeInput(CheckinBody, ctx.request.body, 'body');
      ctx.body = await checkin(deps, jobs, agentReaderOf(ctx), body, clock());
    },
  );

  addAgentRoute(
    {
      method: 'post',
      operationId: 'acknowledgeAssignment',
      path: `${READERS}/assignments/:jobId/ack`,
      roles: 'public',
      tag: TAG,
      summary: 'Acknowledge a job assignment (idempotent)',
      responses: { 204: 'acknowledged', 404: 'no such assignment', 409: 'not assigned to this job', ...AGENT_RESPONSES },
    },
    async (ctx) => {
      await jobs.acknowledgeAssignment(deps, String(ctx.params['jobId']), agentReaderOf(ctx), clock());
      ctx.status = 204;
    },
  );
}

/** What a reader observes: tag reports and health events. */
function registerReportRoutes({ deps, jobs, addAgentRoute }: AgentRoutes): void {
  addAgentRoute(
    {
      method: 'post',
      operationId: 'sendTagReport',
      path: `${READERS}/reports`,
      roles: 'public',
      tag: TAG,
      summary: 'A tag report of one reporting interval (stored once per reportId)',
      body: schema.tagReportSchema,
      bodySize: 'bulk',
      quickBody: quickReport,
      responses: {
        200: { description: '{reportId, duplicate}', schema: schema.reportAnswerSchema },
        400: 'malformed report (errors name the field)',
        409: 'refused: the reader is not in an acknowledged STARTING or RUNNING assignment for jobId',
        ...AGENT_RESPONSES,
      },
    },
    async (ctx) => {
      ctx.body = await acceptColumnReport(deps, jobs, agentReaderOf(ctx), reportOf(ctx.request.body));
    },
  );

  addAgentRoute(
    {
      method: 'post',
      operationId: 'sendReaderHealth',
      path: `${READERS}/health`,
      roles: 'public',
      tag: TAG,
      summary: 'Health events of the reader',
      body: schema.healthEventsSchema,
      bodySize: 'bulk',
      responses: { 204: 'stored', 400: 'invalid body, unknown type or code', ...AGENT_RESPONSES },
    },
    async (ctx) => {
      const body = decodeInput(HealthEventsBody, ctx.request.body, 'body');
      await reportHealth(deps, agentReaderOf(ctx), body.events);
      ctx.status = 204;
    },
  );
}

/** How the reader is getting on with what check-in handed it: feature changes and commands. */
function registerProgressRoutes({ deps, clock, addAgentRoute }: AgentRoutes): void {
  addAgentRoute(
    {
      method: 'post',
      operationId: 'reportFeatureState',
      path: `${READERS}/features/:feature`,
      roles: 'public',
      tag: TAG,
      summary: 'Progress of a feature change: TAKEN, COMPLETED or FAILED',
      body: schema.featureProgressSchema,
      responses: { 204: 'recorded', 400: 'invalid body or feature', 409: 'no change of this feature is pending', ...AGENT_RESPONSES },
    },
    async (ctx) => {
      const { feature } = decodeInput(FeatureParams, { feature: ctx.params['feature'] }, 'params');
      const body = decodeInput(FeatureProgressBody, ctx.request.body, 'body');
      await recordFeatureProgress(deps, agentReaderOf(ctx), feature, body);
      ctx.status = 204;
    },
  );

  addAgentRoute(
    {
      method: 'post',
      operationId: 'reportCommandResult',
      path: `${READERS}/commands/:commandId`,
      roles: 'public',
      tag: TAG,
      summary: 'Result of a command from check-in: DONE or FAILED (with a message); repeating it is fine',
      body: schema.commandResultSchema,
      responses: {
        204: 'recorded; check-in no longer answers the command',
        400: 'invalid body',
        404: 'no such command issued to this reader',
        409: 'the command was already completed with the other result',
        ...AGENT_RESPONSES,
      },
    },
    async (ctx) => {
      const body = decodeInput(CommandResultBody, ctx.request.body, 'body');
      const reader = agentReaderOf(ctx);
      await completeReaderCommand(deps, reader, String(ctx.params['commandId']), body.result, body.message, agentMetadata(reader), clock());
      ctx.status = 204;
    },
  );
}

/** A report body as the gateway stores it: the quick reading's columns, or the general decoding of a body it left alone. */
function reportOf(body: unknown): ColumnReport {
  if (body instanceof QuickReport) return body.report;
  const { report, errors } = normaliseReport(decodeInput(TagReportBody, body, 'body'));
  if (errors.length > 0) throw badRequest('Invalid request body', errors);
  return columnReportOf(report);
}

async function recordFeatureProgress(deps: AppDeps, reader: string, feature: FeatureName, body: FeatureProgressBody): Promise<void> {
  const metadata = agentMetadata(reader);
  switch (body.progress) {
    case 'TAKEN':
      await takeFeatureChange(deps, reader, feature, metadata);
      break;
    case 'COMPLETED':
      // No status: the request's target is assumed (CompleteFeatureChange).
      await runFeatureChange(deps, reader, { type: 'CompleteFeatureChange', feature, ...(body.status ? { status: body.status } : {}) }, metadata);
      break;
    case 'FAILED':
      await failFeatureChange(deps, reader, feature, body.message ?? '', metadata);
      break;
  }
}
