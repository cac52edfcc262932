// Given/when/then helpers for engine scenarios: a fake clock in seconds from
// T0, readers, zone maps, job contexts and reports, and a harness that keeps
// every change the engine produced.
import type { Observation, TagsReportedData } from '../../src/agents/events';
import { emptyState, ingest, tick, writesHistory, type EngineReader, type ExpiryStrategy, type EngineRecipe, type EngineState, type ItemChange, type ItemState, type JobContext } from '../../src/engine';
import type { Zone, ZoneMap } from '../../src/zonemaps/codec';
import { zoneLocator } from '../../src/zonemaps/lookup';

export const T0 = Date.parse('2024-03-01T08:00:00.000Z');
/** Engine time `s` seconds after T0. */
export const at = (s: number): number => T0 + Math.round(s * 1000);
export const iso = (s: number): string => new Date(at(s)).toISOString();
export const MIN = 60;

export const inventoryRecipe = (over: Partial<EngineRecipe> = {}): EngineRecipe => ({
  type: 'INVENTORY',
  tagHeartbeatMs: 5 * MIN * 1000,
  tagExpiryMs: undefined,
  computeWindowMs: 20_000,
  reportingIntervalMs: 5_000,
  minimumMovementInMeters: 0,
  ...over,
});

export const locationRecipe = (over: Partial<EngineRecipe> = {}): EngineRecipe => ({
  type: 'LOCATION',
  tagHeartbeatMs: 5 * MIN * 1000,
  tagExpiryMs: undefined,
  computeWindowMs: 10_000,
  reportingIntervalMs: 5_000,
  minimumMovementInMeters: 1,
  ...over,
});

export function reader(x: number, y: number, floor: string | null, over: Partial<EngineReader> = {}): EngineReader {
  return { placement: { x, y, z: 0, yaw: 0, pitch: 0, roll: 0, floor }, readerZone: null, antennaZones: null, floor, ...over };
}

export const rect = (name: string, floor: string | null, x1: number, y1: number, x2: number, y2: number): Zone => ({
  name,
  floor,
  points: [{ x: x1, y: y1, z: 0 }, { x: x2, y: y2, z: 0 }],
});

export const zoneMap = (facility: string, ...zones: Zone[]): ZoneMap => ({ name: `${facility}-map`, facility, zones });

export interface CtxOptions {
  readers?: Record<string, EngineReader>;
  map?: ZoneMap;
  useOtherJobData?: boolean;
  flags?: Partial<JobContext['flags']>;
}

export function job(jobId: string, facility: string, recipe: EngineRecipe, o: CtxOptions = {}): JobContext {
  return {
    jobId,
    facility,
    recipe,
    useOtherJobData: o.useOtherJobData ?? true,
    readers: new Map(Object.entries(o.readers ?? {})),
    locator: o.map === undefined ? undefined : zoneLocator(o.map),
    flags: { reportToDatabaseEnabled: true, reportToHistoryEnabled: true, reportToMessageQueueEnabled: true, ...o.flags },
  };
}

export interface Seen {
  epc: string;
  /** Seconds after T0. */
  t: number;
  antenna?: number;
  rssi?: number;
  x?: number;
  y?: number;
  tid?: string;
}

export function report(ctx: JobContext, readerName: string, seen: Seen[]): TagsReportedData {
  const observations: Observation[] = seen.map((s) => ({
    epc: s.epc,
    tid: s.tid ?? null,
    antennaId: s.antenna ?? 1,
    peakRssi: s.rssi ?? -50,
    readCount: 1,
    firstSeen: iso(s.t),
    lastSeen: iso(s.t),
    x: s.x ?? null,
    y: s.y ?? null,
  }));
  const times = seen.map((s) => s.t);
  return { reader: readerName, jobId: ctx.jobId, facility: ctx.facility, from: iso(Math.min(0, ...times)), to: iso(Math.max(0, ...times)), observations };
}

/** Drives one engine and records its output. */
export class Harness {
  state: EngineState = emptyState();
  readonly changes: ItemChange[] = [];

  /** `expiry`: how tick finds expired items ('scan' is the reference the index is compared with). */
  constructor(private readonly expiry: ExpiryStrategy = 'index') {}

  /** A report of `readerName` arriving at `now` seconds (default: its newest read). */
  read(ctx: JobContext, readerName: string, seen: Seen[], now?: number): ItemChange[] {
    const arrival = now ?? Math.max(...seen.map((s) => s.t));
    return this.keep(ingest(this.state, report(ctx, readerName, seen), ctx, at(arrival), this.expiry).changes);
  }

  tick(now: number): ItemChange[] {
    return this.keep(tick(this.state, at(now), this.expiry).changes);
  }

  /** Ticks every `step` seconds from `from` to `to` inclusive. */
  tickEvery(step: number, from: number, to: number): ItemChange[] {
    const out: ItemChange[] = [];
    for (let s = from; s <= to + 1e-9; s += step) out.push(...this.tick(s));
    return out;
  }

  item(epc: string, jobId?: string): ItemState | undefined {
    return jobId === undefined ? this.state.shared.get(epc) : this.state.isolated.get(jobId)?.get(epc);
  }

  history(epc?: string): ItemChange[] {
    return this.changes.filter((c) => writesHistory(c.kind) && (epc === undefined || c.epc === epc));
  }

  private keep(changes: ItemChange[]): ItemChange[] {
    this.changes.push(...changes);
    return changes;
  }
}

/** The short form of a change for expectations: kind from>to (facilities when the item changes facility). */
export function brief(c: ItemChange): string {
  const crossed = c.fromFacility !== null && c.fromFacility !== c.toFacility;
  const fac = crossed ? ` [${String(c.fromFacility)}>${String(c.toFacility)}]` : '';
  return `${c.epc} ${c.kind} ${c.fromZone}>${c.toZone}${fac}`;
}
