// Request bodies of the agent API (docs/agent-protocol.md), decoded with
// io-ts; rules across fields (firstSeen <= lastSeen, from <= to) are checked
// after decoding and reported at the later field.
import * as t from 'io-ts';
import type { FieldError } from '../core/decode-errors';
import { FeatureStatusValue } from '../readerdefinitions/features';
import { failureReason, FiniteNumber, IsoTimestamp, NonEmptyString, nullable, PositiveInteger } from '../readerdefinitions/primitives';
import { CommandResult } from './commands';
import { AgentFeatures, AgentState, AgentVersions, AntennaId, EpcHex, type Observation } from './events';

export const CheckinBody = t.intersection(
  [t.type({ agentId: NonEmptyString, versions: AgentVersions, state: AgentState }), t.partial({ features: AgentFeatures })],
  'Checkin',
);
export type CheckinBody = t.TypeOf<typeof CheckinBody>;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID, lower-cased (the event id of the stored report). */
export const Uuid = new t.Type<string, string, unknown>(
  'UUID',
  (u): u is string => typeof u === 'string' && UUID_RE.test(u),
  (u, c) => (typeof u === 'string' && UUID_RE.test(u) ? t.success(u.toLowerCase()) : t.failure(u, c, failureReason('UUID', 'must be a UUID', u))),
  t.identity,
);

const ObservationIn = t.intersection(
  [
    t.type({
      epc: EpcHex,
      antennaId: AntennaId,
      peakRssi: FiniteNumber,
      readCount: PositiveInteger,
      firstSeen: IsoTimestamp,
      lastSeen: IsoTimestamp,
    }),
    t.partial({ tid: nullable(EpcHex), x: nullable(FiniteNumber), y: nullable(FiniteNumber) }),
  ],
  'Observation',
);

export const TagReportBody = t.type(
  {
    reportId: Uuid,
    jobId: NonEmptyString,
    from: IsoTimestamp,
    to: IsoTimestamp,
    observations: t.array(ObservationIn),
  },
  'TagReport',
);
type TagReportInput = t.TypeOf<typeof TagReportBody>;

export interface TagReport {
  readonly reportId: string;
  readonly jobId: string;
  readonly from: string;
  readonly to: string;
  readonly observations: Observation[];
}

/** The decoded report with absent tid/x/y as null, or the cross-field errors (paths under `where`). */
export function normaliseReport(input: TagReportInput, where = 'body'): { report: TagReport; errors: FieldError[] } {
  const errors: FieldError[] = [];
  if (Date.parse(input.from) > Date.parse(input.to)) errors.push({ path: `${where}.to`, reason: `must not be before from (${input.from}), got ${JSON.stringify(input.to)}` });
  const observations = input.observations.map((o, i): Observation => {
    if (Date.parse(o.firstSeen) > Date.parse(o.lastSeen)) {
      errors.push({ path: `${where}.observations.${i}.lastSeen`, reason: `must not be before firstSeen (${o.firstSeen}), got ${JSON.stringify(o.lastSeen)}` });
    }
    return {
      epc: o.epc,
      tid: o.tid ?? null,
      antennaId: o.antennaId,
      peakRssi: o.peakRssi,
      readCount: o.readCount,
      firstSeen: o.firstSeen,
      lastSeen: o.lastSeen,
      x: o.x ?? null,
      y: o.y ?? null,
    };
  });
  return { report: { reportId: input.reportId, jobId: input.jobId, from: input.from, to: input.to, observations }, errors };
}

/** `POST /agent/v1/readers/{readerName}/features/{feature}` body. */
export const FeatureProgressBody = t.union(
  [
    t.type({ progress: t.literal('TAKEN') }),
    t.intersection([t.type({ progress: t.literal('COMPLETED') }), t.partial({ status: FeatureStatusValue })]),
    t.intersection([t.type({ progress: t.literal('FAILED') }), t.partial({ message: t.string })]),
  ],
  'FeatureProgress',
);
export type FeatureProgressBody = t.TypeOf<typeof FeatureProgressBody>;

/** `POST .../commands/{commandId}`: the agent's result of a command. */
export const CommandResultBody = t.intersection([t.type({ result: CommandResult }), t.partial({ message: t.string })], 'CommandResult');
export type CommandResultBody = t.TypeOf<typeof CommandResultBody>;
