// INVENTORY placement: a read is placed at its reader (antenna zone, reader
// zone, the zone around the reader, else FACILITY); among the reads of the
// compute window the strongest peak RSSI wins, with hysteresis: a tag stays
// where it is while a read there is within INVENTORY_HYSTERESIS_DB of the
// strongest (docs/item-processing.md, "Hysteresis").
import { observe } from './transition';
import type { EngineReport } from './report';
import { ABSENT, FACILITY } from './zones';
import { type EngineReader, type InventoryCandidate, type ItemChange, type ItemState, type ItemView, type JobContext, type JobRuntime, type Position } from './types';

/**
 * Zone of a read by `antennaId` of `reader`. Polarized antenna ids (1001-1052,
 * 2001-2052) are two polarizations of one port: an antennaZones entry for the
 * exact id wins, else the entry of the port (id % 1000).
 */
export function zoneOfRead(reader: EngineReader, antennaId: number, ctx: JobContext): string {
  const zones = reader.antennaZones;
  const byAntenna = zones?.[String(antennaId)] ?? (antennaId > 1000 ? zones?.[String(antennaId % 1000)] : undefined);
  if (byAntenna !== undefined) return byAntenna;
  if (reader.readerZone !== null) return reader.readerZone;
  const p = reader.placement;
  const around = p !== null && ctx.locator !== undefined ? ctx.locator(reader.floor, p.x, p.y) : undefined;
  return around ?? FACILITY;
}

/**
 * Position of a read. A reader the job does not know (its definition was
 * deleted while the job ran) still proves the tag is in the facility: it is
 * placed in FACILITY without coordinates rather than dropped.
 */
export function positionOfRead(ctx: JobContext, readerName: string, antennaId: number): Position {
  const reader = ctx.readers.get(readerName);
  if (reader === undefined) return { zone: FACILITY, floor: null, facility: ctx.facility, x: null, y: null };
  const p = reader.placement;
  return {
    zone: zoneOfRead(reader, antennaId, ctx),
    floor: reader.floor,
    facility: ctx.facility,
    x: p?.x ?? null,
    y: p?.y ?? null,
  };
}

/**
 * How much stronger (dB of peak RSSI) a read elsewhere must be than the
 * strongest read at the item's current position to move it while that
 * position is still read. A tag between two readers is read by both with
 * a few dB of noise; without a margin it would change zone with every
 * report. A tag that really moves gets far stronger at its new place (tens
 * of dB over a few metres), or stops being read at the old one and moves
 * when those reads leave the compute window.
 */
export const INVENTORY_HYSTERESIS_DB = 6;

/** Strongest RSSI first; ties go to the latest read, then by reader and antenna so the choice is deterministic. */
function stronger(a: InventoryCandidate, b: InventoryCandidate): InventoryCandidate {
  if (a.peakRssi !== b.peakRssi) return a.peakRssi > b.peakRssi ? a : b;
  if (a.time !== b.time) return a.time > b.time ? a : b;
  if (a.reader !== b.reader) return a.reader < b.reader ? a : b;
  return a.antennaId <= b.antennaId ? a : b;
}

/**
 * One candidate per EPC and report: its strongest observation, at its latest
 * time; in order of each EPC's first observation. `timeOf(i)` is the time of
 * observation i.
 */
function bestOfReport(report: EngineReport, timeOf: (i: number) => number): Map<string, InventoryCandidate> {
  const best = new Map<string, InventoryCandidate>();
  const { epc, tid, antennaId, peakRssi, reader } = report;
  for (let i = 0; i < epc.length; i++) {
    const e = epc[i]!;
    const c: InventoryCandidate = { time: timeOf(i), reader, antennaId: antennaId[i]!, peakRssi: peakRssi[i]!, tid: tid?.[i] ?? null };
    const known = best.get(e);
    best.set(e, known === undefined ? c : { ...stronger(known, c), time: Math.max(known.time, c.time) });
  }
  return best;
}

/** Positions by reader and antenna, per job context (contexts are replaced, never changed, when readers or zone map change). */
const positionCache = new WeakMap<JobContext, Map<string, Map<number, Position>>>();

function cachedPosition(ctx: JobContext, readerName: string, antennaId: number): Position {
  let byReader = positionCache.get(ctx);
  if (byReader === undefined) {
    byReader = new Map();
    positionCache.set(ctx, byReader);
  }
  let byAntenna = byReader.get(readerName);
  if (byAntenna === undefined) {
    byAntenna = new Map();
    byReader.set(readerName, byAntenna);
  }
  let p = byAntenna.get(antennaId);
  if (p === undefined) {
    p = positionOfRead(ctx, readerName, antennaId);
    byAntenna.set(antennaId, p);
  }
  return p;
}

/** Applies one INVENTORY report; placements happen on arrival (readers already report every reportingInterval). */
export function ingestInventory(runtime: JobRuntime, view: ItemView, report: EngineReport, timeOf: (i: number) => number, now: number): ItemChange[] {
  const ctx = runtime.ctx;
  const horizon = now - ctx.recipe.computeWindowMs;
  const window = windowOf(runtime.candidates);
  const changes: ItemChange[] = [];
  for (const [epc, candidate] of bestOfReport(report, timeOf)) {
    // Reads that left the window no longer compete; a reader's newer read replaces its older one.
    let list = runtime.candidates.get(epc);
    if (list === undefined) {
      list = [candidate];
      runtime.candidates.set(epc, list);
    } else {
      let n = 0;
      for (const c of list) if (c.time > horizon && !(c.reader === candidate.reader && c.antennaId === candidate.antennaId)) list[n++] = c;
      list.length = n;
      list.push(candidate);
    }
    window.add(epc, list, candidate.time);
    const winner = list.length === 1 ? candidate : hold(view.get(epc), list, list.reduce(stronger), ctx);
    const next = cachedPosition(ctx, winner.reader, winner.antennaId);
    const change = observe(view, ctx, epc, candidate.tid, candidate.time, next, movedInventory);
    if (change !== undefined) changes.push(change);
  }
  window.size = runtime.candidates.size;
  return changes;
}

/**
 * The hysteresis: the strongest candidate at the item's current position
 * (the incumbent) keeps the item unless `best` beats it by the margin.
 */
function hold(item: ItemState | undefined, list: readonly InventoryCandidate[], best: InventoryCandidate, ctx: JobContext): InventoryCandidate {
  if (item === undefined || item.zone === ABSENT) return best;
  let incumbent: InventoryCandidate | undefined;
  for (const c of list) {
    if (movedInventory(item, cachedPosition(ctx, c.reader, c.antennaId))) continue;
    if (incumbent === undefined || stronger(incumbent, c) === c) incumbent = c;
  }
  if (incumbent === undefined || incumbent === best) return best;
  return best.peakRssi >= incumbent.peakRssi + INVENTORY_HYSTERESIS_DB ? best : incumbent;
}

/** INVENTORY: any other position is a move. */
function movedInventory(prev: Position, next: Position): boolean {
  return !(prev.zone === next.zone && prev.facility === next.facility && prev.floor === next.floor && prev.x === next.x && prev.y === next.y);
}

/**
 * When each EPC's oldest candidate leaves the compute window: a min-heap of
 * (time, EPC) with at most one live entry per EPC, at the time of its oldest
 * candidate, so pruning looks at the EPCs with a candidate at or before the
 * horizon instead of every EPC in the window (ingest ticks after every
 * report: the full walk was most of the engine's time). A tag read again
 * while it has an entry adds none (one entry per read cost the engine about
 * a microsecond a read at 40,000 tags in view); once its old candidates are
 * pruned, the EPC goes back in at the time of its oldest remaining one.
 * Entries a later, older read superseded are skipped when they come up.
 */
class CandidateWindow {
  private readonly times: number[] = [];
  private readonly epcs: string[] = [];
  /** The time of each EPC's live entry, by its candidate list (a list keeps its identity while the EPC is in the window, and its hash is cheap where an EPC string's is not). */
  private readonly scheduled = new WeakMap<readonly InventoryCandidate[], number>();
  /** candidates.size after the last change through inventory.ts: a different size means someone else wrote it (rebuild). */
  size = 0;

  constructor(private readonly candidates: Map<string, readonly InventoryCandidate[]>) {
    for (const [epc, list] of candidates) for (const c of list) this.add(epc, list, c.time);
    this.size = candidates.size;
  }

  /** A candidate at `time` joined `list`, the candidates of `epc`. */
  add(epc: string, list: readonly InventoryCandidate[], time: number): void {
    const at = this.scheduled.get(list);
    if (at !== undefined && at <= time) return;
    this.scheduled.set(list, time);
    this.push(epc, time);
  }

  /** Removes and returns an EPC whose live entry is at or before `horizon` (undefined when none is), with its candidates. */
  popUpTo(horizon: number): [string, InventoryCandidate[]] | undefined {
    for (;;) {
      const times = this.times;
      if (times.length === 0 || times[0]! > horizon) return undefined;
      const time = times[0]!;
      const epc = this.pop();
      const list = this.candidates.get(epc);
      if (list === undefined || this.scheduled.get(list) !== time) continue;
      this.scheduled.delete(list);
      return [epc, list as InventoryCandidate[]];
    }
  }

  private push(epc: string, time: number): void {
    const times = this.times;
    const epcs = this.epcs;
    let i = times.length;
    times.push(time);
    epcs.push(epc);
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pt = times[p]!;
      if (pt <= time) break;
      times[i] = pt;
      epcs[i] = epcs[p]!;
      i = p;
    }
    times[i] = time;
    epcs[i] = epc;
  }

  private pop(): string {
    const times = this.times;
    const epcs = this.epcs;
    const top = epcs[0]!;
    const lastTime = times.pop()!;
    const lastEpc = epcs.pop()!;
    const n = times.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && times[r]! < times[l]! ? r : l;
        if (times[c]! >= lastTime) break;
        times[i] = times[c]!;
        epcs[i] = epcs[c]!;
        i = c;
      }
      times[i] = lastTime;
      epcs[i] = lastEpc;
    }
    return top;
  }
}

const windows = new WeakMap<Map<string, InventoryCandidate[]>, CandidateWindow>();

/** The window index of a job's candidates (built from them on first use, e.g. after a snapshot restore, or when they were written elsewhere). */
function windowOf(candidates: Map<string, InventoryCandidate[]>): CandidateWindow {
  let w = windows.get(candidates);
  if (w === undefined || w.size !== candidates.size) {
    w = new CandidateWindow(candidates);
    windows.set(candidates, w);
  }
  return w;
}

/** Drops candidates that left the window, so memory follows the tags in view. */
export function pruneCandidates(runtime: JobRuntime, now: number): void {
  const horizon = now - runtime.ctx.recipe.computeWindowMs;
  const candidates = runtime.candidates;
  const window = windowOf(candidates);
  for (let due = window.popUpTo(horizon); due !== undefined; due = window.popUpTo(horizon)) {
    const [epc, list] = due;
    let n = 0;
    let oldest = Infinity;
    for (const c of list) {
      if (c.time <= horizon) continue;
      list[n++] = c;
      if (c.time < oldest) oldest = c.time;
    }
    if (n === 0) candidates.delete(epc);
    else {
      list.length = n;
      window.add(epc, list, oldest);
    }
  }
  window.size = candidates.size;
}
