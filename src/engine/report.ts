// A tag report as the engine reads it: the columns of the stored event
// (src/agents/report-columns.ts) with times as epoch milliseconds. The
// engine needs only epc, tid, antenna, RSSI, lastSeen and x/y of each
// observation; decoding TagsReported into an object per observation with two
// ISO strings, which the engine then parsed again, was a large part of its
// CPU and garbage per observation (docs/benchmarks.md, "Pipeline").
import * as t from 'io-ts';
import { TagsReportedV1, type Observation, type TagsReportedData, isoMsReader, decodeColumns } from '../agents';
import { defineEvents } from '../core/events';

export interface EngineReport {
  readonly reader: string;
  readonly jobId: string;
  readonly facility: string;
  readonly epc: readonly string[];
  /** Absent when no observation has a TID. */
  readonly tid: ReadonlyArray<string | null> | undefined;
  readonly antennaId: readonly number[];
  readonly peakRssi: readonly number[];
  /** lastSeen of observation i is timeBase + lastSeen[i] (epoch ms). */
  readonly timeBase: number;
  readonly lastSeen: readonly number[];
  /** firstSeen (timeBase + firstSeen[i]) and read counts: only threshold detection uses them; absent in hand-built reports. */
  readonly firstSeen?: readonly number[];
  readonly readCount?: readonly number[];
  /** Absent when no observation has coordinates. */
  readonly x: ReadonlyArray<number | null> | undefined;
  readonly y: ReadonlyArray<number | null> | undefined;
}

// The shortcut handles the canonical form; anything else IsoTimestamp refuses is left to Date.parse, as before.
function msOf(ms: ReturnType<typeof isoMsReader>, iso: string): number {
  const v = ms(iso);
  return Number.isNaN(v) ? Date.parse(iso) : v;
}

/** The engine's form of report data decoded into observations (version 1 events, tests, scenarios). */
export function engineReportOf(data: TagsReportedData): EngineReport {
  const obs = data.observations;
  const ms = isoMsReader();
  return {
    reader: data.reader,
    jobId: data.jobId,
    facility: data.facility,
    epc: obs.map((o) => o.epc),
    tid: obs.some((o) => o.tid !== null) ? obs.map((o) => o.tid) : undefined,
    antennaId: obs.map((o) => o.antennaId),
    peakRssi: obs.map((o) => o.peakRssi),
    timeBase: 0,
    lastSeen: obs.map((o: Observation) => msOf(ms, o.lastSeen)),
    firstSeen: obs.map((o: Observation) => msOf(ms, o.firstSeen)),
    readCount: obs.map((o) => o.readCount),
    x: obs.some((o) => o.x !== null) ? obs.map((o) => o.x) : undefined,
    y: obs.some((o) => o.y !== null) ? obs.map((o) => o.y) : undefined,
  };
}

/** Decodes stored TagsReported data of either version straight into the engine's form. */
export const EngineTagsReported = new t.Type<EngineReport, unknown, unknown>(
  'TagsReported',
  (u): u is EngineReport => typeof u === 'object' && u !== null && 'timeBase' in u,
  (u, c) => {
    if (typeof u === 'object' && u !== null && 'v' in u) {
      const d = decodeColumns(u, c);
      if (d._tag === 'Left') return d;
      const r = d.right;
      return t.success({
        reader: r.reader,
        jobId: r.jobId,
        facility: r.facility,
        epc: r.epc,
        tid: r.tid,
        antennaId: r.antennaId,
        peakRssi: r.peakRssi,
        timeBase: Date.parse(r.from),
        lastSeen: r.lastSeen,
        firstSeen: r.firstSeen,
        readCount: r.readCount,
        x: r.x,
        y: r.y,
      });
    }
    const v1 = TagsReportedV1.validate(u, c);
    return v1._tag === 'Left' ? v1 : t.success(engineReportOf(v1.right));
  },
  () => {
    throw new Error('EngineTagsReported only decodes: the agent gateway writes TagsReported');
  },
);

/** The engine's decoding of `tagReports-<reader>` (in place of tagReportEvents). */
export const engineReportEvents = defineEvents({ TagsReported: EngineTagsReported });
