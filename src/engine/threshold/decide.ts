// The pure threshold decider: which way did a tag go through a door, from
// the reads of the door's IN-side and OUT-side antennas (docs/item-processing.md,
// "Threshold transitions"). A track holds one tag's reads at one threshold
// in time bins of BIN_MS, in columns (bin number, weight and read count per
// side), so adding a read is a few array writes and a decision is one pass
// over at most passageWindowMs / BIN_MS bins. No clock, no I/O.
import type { TransitionParams } from './params';

export const BIN_MS = 250;

/** +1: an antenna facing the IN side; -1: the OUT side. */
export type Side = 1 | -1;
export type Destination = 'IN' | 'OUT';
export const destinationOf = (side: Side): Destination => (side === 1 ? 'IN' : 'OUT');

export interface Track {
  /** Bin numbers (floor(time / BIN_MS)), ascending, one entry per bin with reads. */
  readonly bins: number[];
  /** Evidence weight of the bin's reads on the IN / OUT side (see readWeight). */
  readonly wIn: number[];
  readonly wOut: number[];
  /** Reads of the bin on the IN / OUT side. */
  readonly nIn: number[];
  readonly nOut: number[];
  /** Observation time of the newest read (ms, reader clock). */
  lastRead: number;
  /** Engine time the newest read arrived (ms): quiet is measured on it, so a reader clock running late cannot end a passage early. */
  lastArrival: number;
  /** Reads in bins before this one are too old to count (the part of a passage already decided). */
  floorBin: number;
  /** The side of the last transition reported for this track, if any. */
  side: Side | undefined;
  /** Reads were added since the last decision attempt. */
  dirty: boolean;
}

export function newTrack(): Track {
  return { bins: [], wIn: [], wOut: [], nIn: [], nOut: [], lastRead: -Infinity, lastArrival: -Infinity, floorBin: -Infinity, side: undefined, dirty: false };
}

/**
 * Weight of `count` reads at `peakRssi`: the read count times the signal
 * amplitude relative to -60 dBm (so a read 20 dB stronger counts ten times as
 * much). A tag near one side's antenna is also heard weakly by the other
 * side's (back lobes, reflections): by amplitude the near side wins.
 */
export function readWeight(peakRssi: number, count: number): number {
  const amplitude = Math.min(20, Math.max(0.05, 10 ** ((peakRssi + 60) / 20)));
  return Math.max(1, count) * amplitude;
}

/** Adds reads at `time` on `side`. Reads before the track's floor (a decided passage) are dropped. */
export function addRead(track: Track, time: number, side: Side, weight: number, count: number): void {
  const bin = Math.floor(time / BIN_MS);
  if (bin < track.floorBin) return;
  const { bins } = track;
  // Reads arrive nearly in time order (several readers report separately): search from the end.
  let i = bins.length;
  while (i > 0 && bins[i - 1]! > bin) i--;
  if (i === 0 || bins[i - 1] !== bin) {
    bins.splice(i, 0, bin);
    track.wIn.splice(i, 0, 0);
    track.wOut.splice(i, 0, 0);
    track.nIn.splice(i, 0, 0);
    track.nOut.splice(i, 0, 0);
  } else {
    i--;
  }
  if (side === 1) {
    track.wIn[i]! += weight;
    track.nIn[i]! += Math.max(1, count);
  } else {
    track.wOut[i]! += weight;
    track.nOut[i]! += Math.max(1, count);
  }
  if (time > track.lastRead) track.lastRead = time;
  track.dirty = true;
}

/** Drops the bins before `bin` (older than the passage window, or decided). */
export function dropBefore(track: Track, bin: number): void {
  let n = 0;
  while (n < track.bins.length && track.bins[n]! < bin) n++;
  if (n === 0) return;
  for (const col of [track.bins, track.wIn, track.wOut, track.nIn, track.nOut]) col.splice(0, n);
}

/** Why a track gave no transition (iteration data and tests). */
export type NoTransition = 'NO_READS' | 'ONE_SIDE' | 'TURNED_BACK' | 'NOT_SETTLED' | 'LOW_CONFIDENCE' | 'ALREADY_THERE';

export type Verdict =
  | {
      readonly kind: 'TRANSITION';
      readonly destination: Destination;
      readonly confidence: number;
      /** When the tag crossed: between the last bin of the source side and the first of the destination side (ms). */
      readonly at: number;
      /** First bin of the destination side: what is kept of the track after reporting. */
      readonly fromBin: number;
    }
  | { readonly kind: 'NONE'; readonly reason: NoTransition };

interface Run {
  side: Side;
  /** Indexes into the track's columns of its first and last bin. */
  first: number;
  last: number;
  weight: number;
}

/** A bin leans to a side when that side's weight is at least LEAN times the other's; else it is neutral. */
const LEAN = 1.5;

function runsOf(track: Track, minRunShare: number): { runs: Run[]; total: number } {
  const { wIn, wOut } = track;
  let total = 0;
  const raw: Run[] = [];
  for (let i = 0; i < wIn.length; i++) {
    const a = wIn[i]!;
    const b = wOut[i]!;
    total += a + b;
    const side: Side | 0 = a > LEAN * b ? 1 : b > LEAN * a ? -1 : 0;
    if (side === 0) continue;
    const prev = raw[raw.length - 1];
    if (prev !== undefined && prev.side === side) {
      prev.last = i;
      prev.weight += side === 1 ? a : b;
    } else {
      raw.push({ side, first: i, last: i, weight: side === 1 ? a : b });
    }
  }
  // Stray reads (a few from the other side) form short runs with little weight: dropped, their neighbours joined.
  const runs: Run[] = [];
  for (const r of raw) {
    if (r.weight < minRunShare * total) continue;
    const prev = runs[runs.length - 1];
    if (prev !== undefined && prev.side === r.side) {
      prev.last = r.last;
      prev.weight += r.weight;
    } else {
      runs.push({ ...r });
    }
  }
  return { runs, total };
}

/**
 * The decision for a track. `final`: the tag went quiet (or its job ended),
 * so this is the last look at these reads; otherwise the destination side
 * must have held for settleMs.
 *
 * Rules: the reads form runs of bins leaning to one side; runs carrying less
 * than minRunShare of the weight are stray reads and dropped. Fewer than two
 * runs: the tag stayed on one side (nothing). The first and the last run on
 * the same side: it turned back (nothing). Otherwise a transition towards
 * the last run's side, with confidence = separation x evidence, where
 * separation is how much of the weight lies on the source side before the
 * crossing and on the destination side after it (0.5 = no better than
 * chance, scaled to 0..1) and evidence = 1 - exp(-n/3) for the smaller read
 * count of the two sides.
 */
export function decide(track: Track, params: TransitionParams, final: boolean): Verdict {
  if (track.bins.length === 0) return { kind: 'NONE', reason: 'NO_READS' };
  const { runs, total } = runsOf(track, params.minRunShare);
  const first = runs[0];
  const last = runs[runs.length - 1];
  if (first === undefined || last === undefined || runs.length < 2) return { kind: 'NONE', reason: 'ONE_SIDE' };
  if (first.side === last.side) return { kind: 'NONE', reason: 'TURNED_BACK' };
  const dest = last.side;
  if (dest === track.side) return { kind: 'NONE', reason: 'ALREADY_THERE' };
  const b = last.first;
  const { bins, wIn, wOut, nIn, nOut } = track;
  if (!final && (bins[bins.length - 1]! - bins[b]! + 1) * BIN_MS < params.settleMs) return { kind: 'NONE', reason: 'NOT_SETTLED' };
  let agree = 0;
  let readsBefore = 0;
  let readsAfter = 0;
  for (let i = 0; i < bins.length; i++) {
    if (i < b) {
      agree += dest === 1 ? wOut[i]! : wIn[i]!;
      readsBefore += dest === 1 ? nOut[i]! : nIn[i]!;
    } else {
      agree += dest === 1 ? wIn[i]! : wOut[i]!;
      readsAfter += dest === 1 ? nIn[i]! : nOut[i]!;
    }
  }
  const separation = Math.min(1, Math.max(0, (agree / total - 0.5) / 0.5));
  const evidence = 1 - Math.exp(-Math.min(readsBefore, readsAfter) / 3);
  const confidence = Math.round(separation * evidence * 100) / 100;
  if (confidence < params.minConfidence) return { kind: 'NONE', reason: 'LOW_CONFIDENCE' };
  // The source run's last bin before b: the crossing lies between it and b.
  let src = b - 1;
  while (src > 0 && (dest === 1 ? wOut[src]! <= LEAN * wIn[src]! : wIn[src]! <= LEAN * wOut[src]!)) src--;
  const at = Math.round(((bins[src]! + 1 + bins[b]!) / 2) * BIN_MS);
  return { kind: 'TRANSITION', destination: destinationOf(dest), confidence, at, fromBin: bins[b]! };
}
