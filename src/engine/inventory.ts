// INVENTORY placement: a read is placed at its reader (antenna zone, reader
// zone, the zone around the reader, else FACILITY); among the reads of the
// compute window the strongest peak RSSI wins.
import type { Observation } from '../agents/events';
import { observe } from './transition';
import { FACILITY, type EngineReader, type InventoryCandidate, type ItemChange, type ItemView, type JobContext, type JobRuntime, type Position } from './types';

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

/** Strongest RSSI first; ties go to the latest read, then by reader and antenna so the choice is deterministic. */
function stronger(a: InventoryCandidate, b: InventoryCandidate): InventoryCandidate {
  if (a.peakRssi !== b.peakRssi) return a.peakRssi > b.peakRssi ? a : b;
  if (a.time !== b.time) return a.time > b.time ? a : b;
  if (a.reader !== b.reader) return a.reader < b.reader ? a : b;
  return a.antennaId <= b.antennaId ? a : b;
}

/** One candidate per EPC and report: its strongest observation, at its latest time. */
function bestOfReport(reader: string, observations: readonly Observation[], timeOf: (o: Observation) => number): Map<string, InventoryCandidate> {
  const best = new Map<string, InventoryCandidate>();
  for (const o of observations) {
    const c: InventoryCandidate = { time: timeOf(o), reader, antennaId: o.antennaId, peakRssi: o.peakRssi, tid: o.tid };
    const known = best.get(o.epc);
    best.set(o.epc, known === undefined ? c : { ...stronger(known, c), time: Math.max(known.time, c.time) });
  }
  return best;
}

/** Applies one INVENTORY report; placements happen on arrival (readers already report every reportingInterval). */
export function ingestInventory(
  runtime: JobRuntime,
  view: ItemView,
  reader: string,
  observations: readonly Observation[],
  timeOf: (o: Observation) => number,
  now: number,
): ItemChange[] {
  const ctx = runtime.ctx;
  const horizon = now - ctx.recipe.computeWindowMs;
  const changes: ItemChange[] = [];
  for (const [epc, candidate] of bestOfReport(reader, observations, timeOf)) {
    // Reads that left the window no longer compete; a reader's newer read replaces its older one.
    const kept = (runtime.candidates.get(epc) ?? []).filter(
      (c) => c.time > horizon && !(c.reader === candidate.reader && c.antennaId === candidate.antennaId),
    );
    kept.push(candidate);
    runtime.candidates.set(epc, kept);
    const winner = kept.reduce(stronger);
    const next = positionOfRead(ctx, winner.reader, winner.antennaId);
    const read = { epc, tid: candidate.tid, time: candidate.time };
    const change = observe(view, ctx, read, next, (prev) => !samePlace(prev, next));
    if (change !== undefined) changes.push(change);
  }
  return changes;
}

function samePlace(a: Position, b: Position): boolean {
  return a.zone === b.zone && a.facility === b.facility && a.floor === b.floor && a.x === b.x && a.y === b.y;
}

/** Drops candidates that left the window, so memory follows the tags in view. */
export function pruneCandidates(runtime: JobRuntime, now: number): void {
  const horizon = now - runtime.ctx.recipe.computeWindowMs;
  for (const [epc, list] of runtime.candidates) {
    const kept = list.filter((c) => c.time > horizon);
    if (kept.length === 0) runtime.candidates.delete(epc);
    else if (kept.length !== list.length) runtime.candidates.set(epc, kept);
  }
}
