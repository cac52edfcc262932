// Request bodies of the agent API (docs/agent-protocol.md), decoded with
// io-ts; rules across fields (firstSeen <= lastSeen, from <= to) are checked
// after decoding and reported at the later field.
import * as t from 'io-ts';
import type { FieldError } from '../core/decode-errors';
import { FeatureStatusValue, failureReason, FiniteNumber, IsoTimestamp, NonEmptyString, nullable, PositiveInteger } from '../readerdefinitions';
import { CommandResult } from './commands';
import { isoMsReader } from './iso-time';
import { AgentFeatures, AgentState, AgentVersions, AntennaId, EpcHex, isAntennaId, type Observation } from './events';

// What a check-in stores as it came, so every part of it is decoded in full:
// versions beyond App and Firmware are kept, so each must be a string too;
// features the service does not know are dropped, not stored unchecked.
const VersionsIn = t.intersection([AgentVersions, t.record(t.string, t.string)], 'Versions');
const FeaturesIn = t.exact(AgentFeatures, 'Features');

export const CheckinBody = t.intersection(
  [t.type({ agentId: NonEmptyString, versions: VersionsIn, state: AgentState }), t.partial({ features: FeaturesIn, temperatureCelsius: FiniteNumber })],
  'Checkin',
);
export type CheckinBody = t.TypeOf<typeof CheckinBody>;

/** A UUID in either case (Uuid lower-cases it). */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

const isHex = EpcHex.is;
const isFiniteNumber = (u: unknown): u is number => typeof u === 'number' && Number.isFinite(u);

/**
 * An observation exactly as io-ts would decode it (EPC and TID upper-cased,
 * absent tid/x/y as null), or undefined when any field would fail. `isTime`
 * is IsoTimestamp.is, remembered per report.
 */
function quickObservation(u: unknown, isTime: (s: unknown) => boolean): Observation | undefined {
  if (typeof u !== 'object' || u === null) return undefined;
  const o = u as Record<string, unknown>;
  const { epc, antennaId, peakRssi, readCount, firstSeen, lastSeen, tid, x, y } = o;
  if (!isHex(epc) || !isAntennaId(antennaId) || !isFiniteNumber(peakRssi)) return undefined;
  if (typeof readCount !== 'number' || !Number.isSafeInteger(readCount) || readCount < 1) return undefined;
  if (!isTime(firstSeen) || !isTime(lastSeen)) return undefined;
  if (!(tid === undefined || tid === null || isHex(tid))) return undefined;
  if (!(x === undefined || x === null || isFiniteNumber(x)) || !(y === undefined || y === null || isFiniteNumber(y))) return undefined;
  return {
    epc: epc.toUpperCase(),
    tid: typeof tid === 'string' ? tid.toUpperCase() : null,
    antennaId,
    peakRssi,
    readCount,
    firstSeen: firstSeen as string,
    lastSeen: lastSeen as string,
    x: x ?? null,
    y: y ?? null,
  };
}

/**
 * `t.array(ObservationIn)` for reports of thousands of observations: one
 * plain loop over the fields instead of io-ts's per-field decoders (which
 * were a sixth of the service's time under load, docs/benchmarks.md). Only
 * when an observation is refused does io-ts decode the array, so errors and
 * their paths are io-ts's own. The result is the normalised observation.
 */
const ObservationsIn = new t.Type<Array<t.TypeOf<typeof ObservationIn>>, unknown, unknown>(
  'Array<Observation>',
  (u): u is Array<t.TypeOf<typeof ObservationIn>> => t.array(ObservationIn).is(u),
  (u, c) => {
    if (Array.isArray(u)) {
      const msOf = isoMsReader();
      const isTime = (s: unknown): boolean => !Number.isNaN(msOf(s));
      const out = new Array<Observation>(u.length);
      let i = 0;
      for (; i < u.length; i++) {
        const o = quickObservation(u[i], isTime);
        if (o === undefined) break;
        out[i] = o;
      }
      if (i === u.length) return t.success(out);
    }
    return t.array(ObservationIn).validate(u, c);
  },
  t.identity,
);

export const TagReportBody = t.type(
  {
    reportId: Uuid,
    jobId: NonEmptyString,
    from: IsoTimestamp,
    to: IsoTimestamp,
    observations: ObservationsIn,
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
  const msOf = isoMsReader();
  const observations = input.observations.map((o, i): Observation => {
    if (o.firstSeen !== o.lastSeen && msOf(o.firstSeen) > msOf(o.lastSeen)) {
      errors.push({ path: `${where}.observations.${i}.lastSeen`, reason: `must not be before firstSeen (${o.firstSeen}), got ${JSON.stringify(o.lastSeen)}` });
    }
    // Already normalised (the quick decoder's result): kept, not copied.
    if (o.tid !== undefined && o.x !== undefined && o.y !== undefined) return o as Observation;
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

const FeatureProgress = t.keyof({ TAKEN: null, COMPLETED: null, FAILED: null }, '"TAKEN" | "COMPLETED" | "FAILED"');

/**
 * `POST /agent/v1/readers/{readerName}/features/{feature}` body. One shape
 * for every progress, not a union of one per progress: a union member takes
 * an object with any other field, so a wrong-typed `message` beside TAKEN or
 * `status` beside FAILED passed unseen. Each field present is decoded, a
 * wrong type is a 400 naming it; `status` is read with COMPLETED only,
 * `message` with FAILED only.
 */
export const FeatureProgressBody = t.intersection(
  [t.type({ progress: FeatureProgress }), t.partial({ status: FeatureStatusValue, message: t.string })],
  'FeatureProgress',
);
export type FeatureProgressBody = t.TypeOf<typeof FeatureProgressBody>;
/** `POST .../commands/{commandId}`: the agent's result of a command. */
export const CommandResultBody = t.intersection([t.type({ result: CommandResult }), t.partial({ message: t.string })], 'CommandResult');
export type CommandResultBody = t.TypeOf<typeof CommandResultBody>;
