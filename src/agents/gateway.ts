// What the agent routes do, apart from HTTP: issue secrets, check-ins, tag
// reports, health events. See docs/agent-protocol.md.
import { randomUUID } from 'node:crypto';
import { BACKWARDS, END, StreamNotFoundError } from '@eventstore/db-client';
import { type EventMetadata, encodeEvent } from '../core/events';
import { appendEvents } from '../core/eventstore';
import { runOnLastEvent } from '../core/last-event-command';
import { ApiError } from '../core/http/errors';
import { ingestion } from '../core/ingestion-summary';
import type { AppDeps } from '../slice';
import type { Assignment, JobsForAgents, ReportTarget } from './assignment';
import { requireReader, ReaderFeatureReadModel, FEATURE_NAMES, type FeatureName, type FeatureStatusValue } from '../readerdefinitions';
import type { CheckinBody, TagReport } from './codecs';
import { observationColumns, type ObservationColumns } from './report-columns';
import { markCommandsDelivered, pendingCommandsOf, type ReaderCommandType } from './commands';
import {
  agentKeys,
  CHECKIN_EVENT_INTERVAL_MS,
  readerAgentEvents,
  readerAgentStream,
  readerHealthEvents,
  readerHealthStream,
  tagReportColumnEvents,
  tagReportsStream,
  AgentState,
  AgentVersions,
} from './events';
import { newAgentSecret, sha256Hex } from './guard';
import { ReadModelGate } from '../core/redis/readiness';
import { bestEffort, isRedisOutage, LastKnown } from './last-known';
import { CONFIG_READ_MODEL } from '../core/resource/readmodel';
import type { AgentHealthEvent } from './health-codes';

/** How many accepted reportIds per reader are remembered to answer late retries. */
export const RECENT_REPORT_IDS = 64;

/** Metadata of what an agent appends. */
export const agentMetadata = (reader: string): EventMetadata => ({ user: `agent:${reader}` });

/** Issues a new secret for an existing reader; only its SHA-256 is stored. */
export async function issueSecret(deps: AppDeps, reader: string, metadata: EventMetadata, now: Date): Promise<string> {
  await requireReader(deps, reader);
  const secret = newAgentSecret();
  // A new secret has no precondition on the stream (the reader's existence is the configuration's): always issued.
  const outcome = await runOnLastEvent(deps.client, {
    stream: readerAgentStream(reader),
    codecs: readerAgentEvents,
    decide: () => [{ type: 'AgentSecretIssued', data: { reader, secretSha256: sha256Hex(secret), at: now.toISOString() } }],
    metadata,
  });
  const position = outcome?.position;
  // The guard reads the projected digest: the agent may use it right away.
  await deps.waiter.waitFor(position);
  return secret;
}

/** The stored digest of a reader's secret (projected from AgentSecretIssued). */
export async function storedSecretDigest(deps: AppDeps, reader: string): Promise<string | undefined> {
  // Part of the config read model: while it rebuilds, "no secret" would
  // refuse a reader with a 401 it cannot recover from; the gate answers 503,
  // unless this process read the reader's digest before (last-known.ts).
  return knownDigests.read(reader, async () => (await new ReadModelGate(deps.redis, deps.keys).read(CONFIG_READ_MODEL, () => deps.redis.hGet(agentKeys(deps.keys).secrets, reader))) ?? undefined);
}

const knownDigests = new LastKnown<string | undefined>();
const knownTargets = new LastKnown<ReportTarget | undefined>();

/** The job the reader's reports are taken for; while Redis cannot answer, the last one this process read (last-known.ts). */
function reportTargetOf(deps: AppDeps, jobs: JobsForAgents, reader: string): Promise<ReportTarget | undefined> {
  return knownTargets.read(reader, () => jobs.reportTargetFor(deps, reader), (err) => deps.logger.debug('report checked against the last known job (Redis cannot answer)', { reader, err: String(err) }));
}

export interface FeatureChangeOrder {
  readonly feature: FeatureName;
  readonly target: FeatureStatusValue;
}

export interface CheckinAnswer {
  readonly checkinIntervalSeconds: number;
  readonly assignment: Assignment | null;
  readonly featureChanges: FeatureChangeOrder[];
  readonly commands: CommandOrder[];
}

/** A pending command as check-in answers it. */
export interface CommandOrder {
  readonly id: string;
  readonly type: ReaderCommandType;
  readonly args: Record<string, unknown>;
}

/** What the last AgentCheckedIn said (also kept in Redis for the upgrades' version view). */
interface LastCheckinEvent {
  readonly agentId: string;
  readonly versions: AgentVersions;
  readonly state: AgentState;
  readonly at: string;
}

const sameVersions = (a: AgentVersions, b: AgentVersions): boolean => {
  const ra = a as Record<string, string>;
  const rb = b as Record<string, string>;
  const ka = Object.keys(ra).sort();
  const kb = Object.keys(rb).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && ra[k] === rb[k]);
};

/** True when the check-in must be appended: something changed, or the last one is a minute old. */
export function checkinIsNews(last: LastCheckinEvent | undefined, body: CheckinBody, now: Date): boolean {
  if (last === undefined) return true;
  if (last.agentId !== body.agentId || last.state !== body.state || !sameVersions(last.versions, body.versions)) return true;
  const at = Date.parse(last.at);
  return Number.isNaN(at) || now.getTime() - at >= CHECKIN_EVENT_INTERVAL_MS;
}


/**
 * What a check-in records, whoever checks in (an agent, or the readers role
 * for the readers it holds a connection to): the Redis `lastCheckin`, and
 * AgentCheckedIn when something changed or the last one is a minute old.
 */
export async function recordCheckin(deps: AppDeps, reader: string, body: CheckinBody, now: Date): Promise<void> {
  const keys = agentKeys(deps.keys);
  const at = now.toISOString();
  await deps.redis.hSet(keys.lastCheckin, reader, at);
  const data = { reader, agentId: body.agentId, versions: body.versions, state: body.state, at, ...(body.features ? { features: body.features } : {}), ...(body.temperatureCelsius === undefined ? {} : { temperatureCelsius: body.temperatureCelsius }) };
  // Decided on the stream's last event (its check-ins grow without end): news unless the last event is
  // a check-in saying the same less than CHECKIN_EVENT_INTERVAL_MS ago (a secret issued since: news).
  const appended = await runOnLastEvent(deps.client, {
    stream: readerAgentStream(reader),
    codecs: readerAgentEvents,
    decide: (last) => (checkinIsNews(last?.type === 'AgentCheckedIn' ? last.data : undefined, body, now) ? [{ type: 'AgentCheckedIn', data }] : []),
    metadata: agentMetadata(reader),
  });
  if (appended !== undefined) {
    const summary: LastCheckinEvent = { agentId: body.agentId, versions: body.versions, state: body.state, at };
    await deps.redis.hSet(keys.lastCheckinEvent, reader, JSON.stringify(summary));
  }
}

export async function checkin(deps: AppDeps, jobs: JobsForAgents, reader: string, body: CheckinBody, now: Date): Promise<CheckinAnswer> {
  await recordCheckin(deps, reader, body, now);
  const [assignment, features, pending] = await Promise.all([
    jobs.assignmentFor(deps, reader),
    new ReaderFeatureReadModel(deps.redis, deps.keys).of(reader),
    pendingCommandsOf(deps, reader),
  ]);
  const featureChanges: FeatureChangeOrder[] = [];
  for (const feature of FEATURE_NAMES) {
    const s = features[feature];
    if (s?.requestStatus === 'INITIALIZING' && s.requestTargetStatus !== null) featureChanges.push({ feature, target: s.requestTargetStatus });
  }
  const commands = pending.commands.map((c): CommandOrder => ({ id: c.id, type: c.type, args: c.args }));
  const undelivered = commands.filter((c) => !pending.delivered.has(c.id)).map((c) => c.id);
  if (undelivered.length > 0) {
    // Only a record for support ("delivered at"): losing it must not fail the check-in.
    await markCommandsDelivered(deps, reader, undelivered, agentMetadata(reader), now).catch((err: unknown) =>
      deps.logger.warn('could not record command delivery', { reader, err: err as Error }),
    );
  }
  // How often to check in: the same setting tells reader health how long a silence means NOT_RESPONDING, so both agree.
  return { checkinIntervalSeconds: deps.config.health.checkinIntervalSeconds, assignment: assignment ?? null, featureChanges, commands };
}

export type RefusalReason = 'NOT_ASSIGNED' | 'OTHER_JOB' | 'NOT_ACKNOWLEDGED';

/**
 * The refusals that mean a report can never be stored: the reader is no longer
 * in the job it read for (the job ended, the reader failed in it or left it) or
 * runs another job now. NOT_ACKNOWLEDGED is not one: the reader's start in the
 * job may be recorded a moment later, and the same report is then taken.
 */
export const FINAL_REFUSALS: ReadonlySet<RefusalReason> = new Set<RefusalReason>(['NOT_ASSIGNED', 'OTHER_JOB']);

/** acceptReport's refusal: a 409 naming the reason at `body.jobId`. */
export class ReportRefused extends ApiError {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super('conflict', `Report refused: ${message}`, [{ path: 'body.jobId', reason }]);
  }

  /** The report can never be stored (FINAL_REFUSALS): sending it again is pointless. */
  get final(): boolean {
    return FINAL_REFUSALS.has(this.reason);
  }
}

/** Why a report for `jobId` is refused given the reader's assignment, or undefined when accepted. */
export function refusalOf(assignment: ReportTarget | undefined, jobId: string): { reason: RefusalReason; message: string } | undefined {
  if (assignment === undefined) return { reason: 'NOT_ASSIGNED', message: `the reader is in no STARTING, RUNNING or STOPPING job (report for JobId=${jobId})` };
  if (assignment.jobId !== jobId) return { reason: 'OTHER_JOB', message: `the reader is assigned to JobId=${assignment.jobId}, not JobId=${jobId}` };
  if (!assignment.acknowledged) return { reason: 'NOT_ACKNOWLEDGED', message: `the assignment to JobId=${jobId} is not acknowledged yet` };
  return undefined;
}

export interface ReportOutcome {
  readonly reportId: string;
  readonly duplicate: boolean;
}

const statField = {
  accepted: (reader: string): string => `${reader}/accepted`,
  refused: (reader: string, reason: RefusalReason): string => `${reader}/refused/${reason}`,
};

/** A tag report with its observations as columns: what the gateway stores (src/agents/report-columns.ts). */
export interface ColumnReport {
  readonly reportId: string;
  readonly jobId: string;
  readonly from: string;
  readonly to: string;
  readonly columns: ObservationColumns;
}

/** A decoded report in the form the gateway stores. */
export const columnReportOf = (report: TagReport): ColumnReport => ({
  reportId: report.reportId,
  jobId: report.jobId,
  from: report.from,
  to: report.to,
  columns: observationColumns(report.observations, report.from),
});

/** Stores a report given as observations (the readers' connectors): see acceptColumnReport. */
export function acceptReport(deps: AppDeps, jobs: JobsForAgents, reader: string, report: TagReport): Promise<ReportOutcome> {
  return acceptColumnReport(deps, jobs, reader, columnReportOf(report));
}

/**
 * Stores a report as one TagsReported (event id = reportId). A reportId among
 * the reader's recent ones is answered as a duplicate without appending; an
 * immediate retry racing the first is deduplicated by the store at the tail.
 */
export async function acceptColumnReport(deps: AppDeps, jobs: JobsForAgents, reader: string, report: ColumnReport): Promise<ReportOutcome> {
  const keys = agentKeys(deps.keys);
  const count = report.columns.epc.length;
  // Without Redis the recent ids are unknown: a retry racing its first attempt is then deduplicated by the store at the tail.
  const recent: string[] = await deps.redis.lRange(keys.recentReports(reader), 0, -1).catch((err: unknown): string[] => {
    if (isRedisOutage(err)) return [];
    throw err;
  });
  if (recent.includes(report.reportId)) return { reportId: report.reportId, duplicate: true };
  const assignment = await reportTargetOf(deps, jobs, reader);
  const refusal = refusalOf(assignment, report.jobId);
  if (refusal !== undefined || assignment === undefined) {
    const reason = refusal?.reason ?? 'NOT_ASSIGNED';
    await bestEffort(() => deps.redis.hIncrBy(keys.reportStats, statField.refused(reader, reason), 1));
    ingestion.reportRefused(reader, reason, count);
    throw new ReportRefused(reason, refusal?.message ?? reason);
  }
  const data = { v: 2 as const, reader, jobId: report.jobId, facility: assignment.facility, from: report.from, to: report.to, ...report.columns };
  // Not through a decider: a report is a fact the reader sent, not a decision
  // on the stream's state. Reports of one reader arrive concurrently; an
  // expected revision would only turn them into retries, and folding the
  // stream (every report) per report would cost far more than the report.
  // Its duplicate check is the event id (the reportId), which the store
  // writes once.
  await appendEvents(deps.client, tagReportsStream(reader), [encodeEvent(tagReportColumnEvents, { type: 'TagsReported', data }, agentMetadata(reader), report.reportId)], 'any');
  await bestEffort(() =>
    deps.redis
      .multi()
      .lPush(keys.recentReports(reader), report.reportId)
      .lTrim(keys.recentReports(reader), 0, RECENT_REPORT_IDS - 1)
      .hIncrBy(keys.reportStats, statField.accepted(reader), 1)
      .exec(),
  );
  ingestion.reportAccepted(reader, count);
  return { reportId: report.reportId, duplicate: false };
}

/**
 * Whether `reportId` is the newest TagsReported of `reader`: a sender that sends
 * one report at a time asks it of a report refused after an attempt that went
 * unanswered (that attempt may have been stored, as the last append of the
 * reader's stream).
 */
export async function isNewestReport(deps: AppDeps, reader: string, reportId: string): Promise<boolean> {
  let newest: string | undefined;
  try {
    for await (const e of deps.client.readStream(tagReportsStream(reader), { direction: BACKWARDS, fromRevision: END, maxCount: 1 })) newest = e.event?.id;
  } catch (err) {
    if (err instanceof StreamNotFoundError) return false;
    throw err;
  }
  return newest === reportId;
}

export interface ReaderReportStats {
  readerName: string;
  acceptedReports: number;
  refusedReports: Partial<Record<RefusalReason, number>>;
}

/** Per reader: accepted and refused reports (by reason), sorted by reader name. */
export async function reportStats(deps: AppDeps): Promise<ReaderReportStats[]> {
  const raw = await deps.redis.hGetAll(agentKeys(deps.keys).reportStats);
  const byReader = new Map<string, ReaderReportStats>();
  const of = (reader: string): ReaderReportStats => {
    let s = byReader.get(reader);
    if (!s) byReader.set(reader, (s = { readerName: reader, acceptedReports: 0, refusedReports: {} }));
    return s;
  };
  for (const [field, value] of Object.entries(raw)) {
    const n = Number(value);
    const refused = /^(.*)\/refused\/([A-Z_]+)$/.exec(field);
    if (refused) of(refused[1] ?? '').refusedReports[refused[2] as RefusalReason] = n;
    else if (field.endsWith('/accepted')) of(field.slice(0, -'/accepted'.length)).acceptedReports = n;
  }
  return [...byReader.values()].sort((a, b) => a.readerName.localeCompare(b.readerName));
}

/** Appends the agent's health events to `readerHealth-<reader>`, in order, in one append. */
export async function reportHealth(deps: AppDeps, reader: string, events: readonly AgentHealthEvent[]): Promise<void> {
  if (events.length === 0) return;
  const encoded = events.map((e) =>
    encodeEvent(readerHealthEvents, { type: 'HealthEventReported', data: { readerName: reader, eventTime: e.eventTime, type: e.type, code: e.code, args: e.args } }, agentMetadata(reader), randomUUID()),
  );
  // Like tag reports: facts the reader sent (ids of their own), appended as they come, not decided.
  await appendEvents(deps.client, readerHealthStream(reader), encoded, 'any');
}
