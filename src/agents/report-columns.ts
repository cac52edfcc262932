// How TagsReported data is stored: version 2, one array per observation field
// ("columns") instead of one object per observation, and times as
// milliseconds after the report's `from`. A report of 1,000 observations is
// about 45 bytes an observation instead of about 190: every later step pays
// per byte (the client's protobuf and base64 work on append, the store, the
// JSON.parse of every reader of the event), so this is what makes reports
// cheap to carry (docs/benchmarks.md, "Pipeline").
//
//   { v: 2, reader, jobId, facility, from, to,
//     epc: [..], antennaId: [..], peakRssi: [..], readCount: [..],
//     firstSeen: [ms after from], lastSeen: [ms after from],
//     tid?: [hex | null], x?: [number | null], y?: [number | null],
//     phaseAngle?: [degrees | null] }   (absent when all null)
//
// Decoding gives the same TagsReportedData as version 1 (an Observation per
// tag), so the engine and other readers do not change; firstSeen/lastSeen
// come back as UTC ISO strings of the same instant (to the millisecond, which
// is all Date.parse ever saw). Version 1 events (no `v`) stay readable.
import * as t from 'io-ts';
import { failureReason, FiniteNumber, Integer, IsoTimestamp, NonEmptyString, nullable, PositiveInteger } from '../core/codecs';
import { isoMsReader } from './iso-time';
import { isoTime } from '../core/iso-time';

/** The decoded form of an observation (both versions). */
export interface ObservationData {
  epc: string;
  tid: string | null;
  antennaId: number;
  peakRssi: number;
  readCount: number;
  firstSeen: string;
  lastSeen: string;
  x: number | null;
  y: number | null;
  /** Degrees; only where the reader gave one (absent when the report has no phase column). */
  phaseAngle?: number | null;
}

export interface ReportColumns {
  readonly v: 2;
  readonly reader: string;
  readonly jobId: string;
  readonly facility: string;
  readonly from: string;
  readonly to: string;
  readonly epc: string[];
  readonly antennaId: number[];
  readonly peakRssi: number[];
  readonly readCount: number[];
  readonly firstSeen: number[];
  readonly lastSeen: number[];
  readonly tid?: Array<string | null>;
  readonly x?: Array<number | null>;
  readonly y?: Array<number | null>;
  readonly phaseAngle?: Array<number | null>;
}

const UPPER_HEX = /^[0-9A-F]+$/;

/**
 * `t.array(codec)` for arrays of thousands of primitives: each element is
 * first checked with `accept` (which must only accept values the codec
 * decodes to themselves) in a plain loop; only when one is refused does
 * io-ts validate the array, so errors and their paths are io-ts's own.
 */
export function fastArray<C extends t.Mixed>(codec: C, accept: (u: unknown) => boolean): t.Type<Array<t.TypeOf<C>>, Array<t.OutputOf<C>>, unknown> {
  const slow = t.array(codec);
  return new t.Type<Array<t.TypeOf<C>>, Array<t.OutputOf<C>>, unknown>(
    slow.name,
    slow.is,
    (u, c) => {
      if (Array.isArray(u)) {
        let i = 0;
        while (i < u.length && accept(u[i])) i++;
        if (i === u.length) return t.success(u as Array<t.TypeOf<C>>);
      }
      return slow.validate(u, c);
    },
    slow.encode,
  );
}

const isFinite = (u: unknown): boolean => typeof u === 'number' && Number.isFinite(u);
const isInteger = (u: unknown): boolean => typeof u === 'number' && Number.isSafeInteger(u);
const epcHexUpper = new t.Type<string, string, unknown>(
  'upper-case hex string',
  (u): u is string => typeof u === 'string' && UPPER_HEX.test(u),
  (u, c) => (typeof u === 'string' && UPPER_HEX.test(u) ? t.success(u) : t.failure(u, c, failureReason('hex string', 'must be a non-empty upper-case hexadecimal string', u))),
  t.identity,
);
const isUpperHex = (u: unknown): boolean => typeof u === 'string' && UPPER_HEX.test(u);

const Columns = t.intersection([
  t.type({
    v: t.literal(2),
    reader: NonEmptyString,
    jobId: NonEmptyString,
    facility: NonEmptyString,
    from: IsoTimestamp,
    to: IsoTimestamp,
    epc: fastArray(epcHexUpper, isUpperHex),
    // Antenna ids are checked where reports come in; here any integer is data.
    antennaId: fastArray(Integer, isInteger),
    peakRssi: fastArray(FiniteNumber, isFinite),
    readCount: fastArray(PositiveInteger, (u) => isInteger(u) && (u as number) >= 1),
    firstSeen: fastArray(Integer, isInteger),
    lastSeen: fastArray(Integer, isInteger),
  }),
  t.partial({
    tid: fastArray(nullable(epcHexUpper), (u) => u === null || isUpperHex(u)),
    x: fastArray(nullable(FiniteNumber), (u) => u === null || isFinite(u)),
    y: fastArray(nullable(FiniteNumber), (u) => u === null || isFinite(u)),
    phaseAngle: fastArray(nullable(FiniteNumber), (u) => u === null || isFinite(u)),
  }),
]);

const COLUMNS = ['antennaId', 'peakRssi', 'readCount', 'firstSeen', 'lastSeen', 'tid', 'x', 'y', 'phaseAngle'] as const;

export interface ReportData {
  reader: string;
  jobId: string;
  facility: string;
  from: string;
  to: string;
  observations: ObservationData[];
}

/** Validates version 2 data as columns (every column as long as epc); errors name `<column>.<index>`. */
export function decodeColumns(u: unknown, c: t.Context): t.Validation<ReportColumns> {
  // The intersection's member indexes stay out of error paths only when it is the context's last type.
  const last = c[c.length - 1];
  const decoded = Columns.validate(u, last ? [...c.slice(0, -1), { ...last, type: Columns }] : c);
  if (decoded._tag === 'Left') return decoded;
  const d = decoded.right;
  const n = d.epc.length;
  for (const column of COLUMNS) {
    const values = d[column];
    if (values !== undefined && values.length !== n) {
      return t.failure(values, [...c, { key: column, type: Columns, actual: values }], `must have as many entries as epc (${n}), got ${values.length}`);
    }
  }
  return t.success(d);
}

/** Validates version 2 data and turns it into observations; errors name `<column>.<index>`. */
export function validateColumns(u: unknown, c: t.Context): t.Validation<ReportData> {
  const decoded = decodeColumns(u, c);
  if (decoded._tag === 'Left') return decoded;
  const d = decoded.right;
  const n = d.epc.length;
  const base = Date.parse(d.from);
  const observations = new Array<ObservationData>(n);
  const phase = d.phaseAngle;
  for (let i = 0; i < n; i++) {
    const o: ObservationData = {
      epc: d.epc[i]!,
      tid: d.tid?.[i] ?? null,
      antennaId: d.antennaId[i]!,
      peakRssi: d.peakRssi[i]!,
      readCount: d.readCount[i]!,
      firstSeen: isoTime(base + d.firstSeen[i]!),
      lastSeen: isoTime(base + d.lastSeen[i]!),
      x: d.x?.[i] ?? null,
      y: d.y?.[i] ?? null,
    };
    if (phase !== undefined) o.phaseAngle = phase[i] ?? null;
    observations[i] = o;
  }
  return t.success({ reader: d.reader, jobId: d.jobId, facility: d.facility, from: d.from, to: d.to, observations });
}

/** The observation columns of a report (everything of ReportColumns but what names the report). */
export type ObservationColumns = Omit<ReportColumns, 'v' | 'reader' | 'jobId' | 'facility' | 'from' | 'to'>;

type RequiredColumns = Pick<ObservationColumns, 'epc' | 'antennaId' | 'peakRssi' | 'readCount' | 'firstSeen' | 'lastSeen'>;

/** The columns every report has, `n` long, to be filled in. */
export function requiredColumns(n: number): { [K in keyof RequiredColumns]: Array<RequiredColumns[K][number]> } {
  return { epc: new Array<string>(n), antennaId: new Array<number>(n), peakRssi: new Array<number>(n), readCount: new Array<number>(n), firstSeen: new Array<number>(n), lastSeen: new Array<number>(n) };
}

/** Observations as columns, times in ms after `from` (nullable columns left out when all null). */
export function observationColumns(obs: readonly ObservationData[], from: string): ObservationColumns {
  const n = obs.length;
  const base = Date.parse(from);
  const ms = isoMsReader();
  const { epc, antennaId, peakRssi, readCount, firstSeen, lastSeen } = requiredColumns(n);
  let anyTid = false;
  let anyX = false;
  let anyY = false;
  let anyPhase = false;
  for (let i = 0; i < n; i++) {
    const o = obs[i]!;
    epc[i] = o.epc.toUpperCase();
    antennaId[i] = o.antennaId;
    peakRssi[i] = o.peakRssi;
    readCount[i] = o.readCount;
    firstSeen[i] = ms(o.firstSeen) - base;
    lastSeen[i] = ms(o.lastSeen) - base;
    anyTid ||= o.tid !== null;
    anyX ||= o.x !== null;
    anyY ||= o.y !== null;
    anyPhase ||= o.phaseAngle !== undefined && o.phaseAngle !== null;
  }
  return {
    epc,
    antennaId,
    peakRssi,
    readCount,
    firstSeen,
    lastSeen,
    ...(anyTid ? { tid: obs.map((o) => (o.tid === null ? null : o.tid.toUpperCase())) } : {}),
    ...(anyX ? { x: obs.map((o) => o.x) } : {}),
    ...(anyY ? { y: obs.map((o) => o.y) } : {}),
    ...(anyPhase ? { phaseAngle: obs.map((o) => o.phaseAngle ?? null) } : {}),
  };
}

/** The version 2 form of report data. */
export function toColumns(data: ReportData): ReportColumns {
  return { v: 2, reader: data.reader, jobId: data.jobId, facility: data.facility, from: data.from, to: data.to, ...observationColumns(data.observations, data.from) };
}

/**
 * Version 2 data written as it is: the agent gateway builds the columns
 * itself (from the report body, src/agents/report-scan.ts), so encoding
 * copies nothing; decoding checks them as TagsReportedData does.
 */
export const TagsReportedColumns = new t.Type<ReportColumns, ReportColumns, unknown>('TagsReported', Columns.is, decodeColumns, t.identity);

/** What a reader needing only the EPCs of a report decodes (both versions), without building observations. */
export interface ReportEpcs {
  reader: string;
  jobId: string;
  to: string;
  observations: Array<{ epc: string }>;
}

const EpcsV1 = t.type({ reader: t.string, jobId: t.string, to: t.string, observations: t.array(t.type({ epc: t.string })) });
const EpcsV2 = t.type({ reader: t.string, jobId: t.string, to: t.string, epc: fastArray(t.string, (u) => typeof u === 'string') });

export const TagsReportedEpcs = new t.Type<ReportEpcs, unknown, unknown>(
  'TagsReported',
  EpcsV1.is,
  (u, c) => {
    if (typeof u === 'object' && u !== null && 'v' in u) {
      const d = EpcsV2.validate(u, c);
      return d._tag === 'Left' ? d : t.success({ reader: d.right.reader, jobId: d.right.jobId, to: d.right.to, observations: d.right.epc.map((epc) => ({ epc })) });
    }
    return EpcsV1.validate(u, c);
  },
  () => {
    throw new Error('TagsReportedEpcs only decodes: the agent gateway writes TagsReported');
  },
);
