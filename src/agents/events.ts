// Events and Redis keys of the agent gateway, shared with the item engine,
// job stats and reader health, which read them:
//
//   readerAgent-<reader>   AgentSecretIssued, AgentCheckedIn
//   tagReports-<reader>    TagsReported (event id = the agent's reportId)
//   readerHealth-<reader>  HealthEventReported
//   readerCommands-<reader> ReaderCommandIssued/Delivered/Completed (src/agents/commands.ts)
//
// Redis (all under `<prefix>v1:agents:`), see agentKeys below.
import * as t from 'io-ts';
import { defineEvents } from '../core/events';
import type { RedisKeys } from '../core/redis/keys';
import { FeatureName, FeatureStatusValue, FiniteNumber, IsoTimestamp, NonEmptyString, nullable, PositiveInteger, failureReason } from '../readerdefinitions';
import { HealthEventData } from './health-codes';
import { TagsReportedColumns, toColumns, validateColumns, type ReportColumns } from './report-columns';

export const READER_AGENT_STREAM_PREFIX = 'readerAgent-';
export const TAG_REPORTS_STREAM_PREFIX = 'tagReports-';
export const READER_HEALTH_STREAM_PREFIX = 'readerHealth-';

export const readerAgentStream = (reader: string): string => `${READER_AGENT_STREAM_PREFIX}${reader}`;
export const tagReportsStream = (reader: string): string => `${TAG_REPORTS_STREAM_PREFIX}${reader}`;
export const readerHealthStream = (reader: string): string => `${READER_HEALTH_STREAM_PREFIX}${reader}`;

/** What the agent says it is doing. */
export const AgentState = t.keyof({ IDLE: null, RUNNING_JOB: null, UPDATING_FIRMWARE: null, ERROR: null }, 'IDLE | RUNNING_JOB | UPDATING_FIRMWARE | ERROR');
export type AgentState = t.TypeOf<typeof AgentState>;

/**
 * Software versions the agent reports, e.g. {App: "1.4.2", Firmware: "7.6.1"}:
 * the reader health `version` object (both keys required; others are kept).
 */
export const AgentVersions = t.type({ App: t.string, Firmware: t.string }, 'Versions');
export type AgentVersions = t.TypeOf<typeof AgentVersions>;

/** Feature states the agent reports, e.g. {ANTENNA_HUB: "DISABLED"}. */
export const AgentFeatures = t.partial({ ANTENNA_HUB: FeatureStatusValue });
export type AgentFeatures = t.TypeOf<typeof AgentFeatures>;
export { FeatureName };

const HEX = /^[0-9A-Fa-f]+$/;

/** An EPC: non-empty hexadecimal, stored upper-case. */
export const EpcHex = new t.Type<string, string, unknown>(
  'hex string',
  (u): u is string => typeof u === 'string' && HEX.test(u),
  (u, c) => (typeof u === 'string' && HEX.test(u) ? t.success(u.toUpperCase()) : t.failure(u, c, failureReason('hex string', 'must be a non-empty hexadecimal string', u))),
  t.identity,
);

/** Antenna ids: 1-52, or polarized 1001-1052 / 2001-2052. */
export const isAntennaId = (n: unknown): n is number =>
  typeof n === 'number' && Number.isSafeInteger(n) && ((n >= 1 && n <= 52) || (n >= 1001 && n <= 1052) || (n >= 2001 && n <= 2052));

export const AntennaId = new t.Type<number, number, unknown>(
  'antenna id',
  isAntennaId,
  (u, c) => (isAntennaId(u) ? t.success(u) : t.failure(u, c, failureReason('antenna id', 'must be an integer 1-52, 1001-1052 or 2001-2052', u))),
  t.identity,
);

/**
 * One tag seen during a report interval, as stored (x/y null unless LOCATION
 * mode). `phaseAngle` (degrees, 0-360) only where a reader gave one (LLRP and
 * IoT readers asked for it): absent otherwise, and in every older event.
 */
export const Observation = t.intersection(
  [
    t.type({
      epc: EpcHex,
      tid: nullable(EpcHex),
      antennaId: AntennaId,
      peakRssi: FiniteNumber,
      readCount: PositiveInteger,
      firstSeen: IsoTimestamp,
      lastSeen: IsoTimestamp,
      x: nullable(FiniteNumber),
      y: nullable(FiniteNumber),
    }),
    t.partial({ phaseAngle: nullable(FiniteNumber) }),
  ],
  'Observation',
);
export type Observation = t.TypeOf<typeof Observation>;

/** Version 1 of the stored data (until 2026-11-23): an object per observation. Still decoded. */
export const TagsReportedV1 = t.type(
  {
    reader: NonEmptyString,
    jobId: NonEmptyString,
    facility: NonEmptyString,
    from: IsoTimestamp,
    to: IsoTimestamp,
    observations: t.array(Observation),
  },
  'TagsReported',
);
export type TagsReportedData = t.TypeOf<typeof TagsReportedV1>;

/**
 * A report as the engine and the other readers see it. Written as version 2
 * (columns, src/agents/report-columns.ts: a quarter of the bytes); both
 * versions decode to the same data.
 */
export const TagsReportedData = new t.Type<TagsReportedData, ReportColumns, unknown>(
  'TagsReported',
  TagsReportedV1.is,
  (u, c) => (typeof u === 'object' && u !== null && 'v' in u ? validateColumns(u, c) : TagsReportedV1.validate(u, c)),
  toColumns,
);

/** `tagReports-<reader>`: one event per report; its event id is the agent's reportId. */
export const tagReportEvents = defineEvents({ TagsReported: TagsReportedData });

/** How the gateway writes `tagReports-<reader>`: the same events, from data already in columns. */
export const tagReportColumnEvents = defineEvents({ TagsReported: TagsReportedColumns });

export const AgentCheckedInData = t.intersection(
  [
    t.type({
      reader: t.string,
      agentId: t.string,
      versions: AgentVersions,
      state: AgentState,
      at: IsoTimestamp,
    }),
    // What the reader says of its own temperature (degrees Celsius), when it says it.
    t.partial({ features: AgentFeatures, temperatureCelsius: FiniteNumber }),
  ],
  'AgentCheckedIn',
);
export type AgentCheckedInData = t.TypeOf<typeof AgentCheckedInData>;

/** `readerAgent-<reader>`. */
export const readerAgentEvents = defineEvents({
  /** A new agent secret; only its SHA-256 (hex) is kept. Replaces the previous one. */
  AgentSecretIssued: t.type({ reader: t.string, secretSha256: t.string, at: IsoTimestamp }),
  /** Appended when agentId, versions or state changed, else at most once a minute. */
  AgentCheckedIn: AgentCheckedInData,
});

/** `readerHealth-<reader>`: one event per health event the agent reported. */
export const readerHealthEvents = defineEvents({ HealthEventReported: HealthEventData });

/** How often (at most) an unchanged check-in is appended as AgentCheckedIn. */
export const CHECKIN_EVENT_INTERVAL_MS = 60_000;

/** Redis keys of the gateway. */
export function agentKeys(keys: RedisKeys) {
  const base = `${keys.base}v1:agents:`;
  return {
    /** Hash reader -> ISO time of its last check-in (written at every check-in). */
    lastCheckin: `${base}lastCheckin`,
    /** Hash reader -> SHA-256 hex of its agent secret (projected from AgentSecretIssued). */
    secrets: `${base}secrets`,
    /** Hash reader -> JSON {agentId, versions, state, at} of the last AgentCheckedIn appended. */
    lastCheckinEvent: `${base}lastCheckinEvent`,
    /** List of the reader's latest accepted reportIds (newest first, capped). */
    recentReports: (reader: string): string => `${base}recentReports:${reader}`,
    /** Hash `<reader>/accepted` and `<reader>/refused/<REASON>` -> count. */
    reportStats: `${base}reportStats`,
    /** Prefix of the command read model (src/agents/commands.ts: commandKeys). */
    commandsBase: `${base}commands:`,
  };
}
