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
  /** Engine time the newest read arrived (ms): the fallback of the quiet rule when the door's readers report nothing (tracker.ts). */
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

/** Balance of a bin: (IN weight - OUT weight) / (IN + OUT), from -1 (all OUT) to +1 (all IN). */
const balanceOf = (wIn: number, wOut: number): number => (wIn + wOut === 0 ? 0 : (wIn - wOut) / (wIn + wOut));

/**
 * The decision for a track. `final`: the tag went quiet (or its job ended),
 * so this is the last look at these reads; otherwise the tag must have held
 * the destination side for settleMs.
 *
 * Both sides of a door usually hear a tag all the way through, only at
 * different strengths, so the rule looks at how the balance between the
 * sides moves, not at which side hears it at all. The reads are split into
 * thirds by read count: the start, middle and end levels S, M, E are the
 * read-weighted mean balances of each third. The shift D = E - S says where
 * the tag went: towards IN when positive. |D| below minBalanceShift: the tag
 * stayed where it was, either on one side or between both (ONE_SIDE), or it
 * went over and came back (TURNED_BACK: M differs from both ends by that
 * much). S and E must also lie on their sides of zero (by a third of
 * minBalanceShift): a drift within one side is no passage (ONE_SIDE). Confidence = min(1, |D| / FULL_SHIFT) x evidence, evidence = 1 -
 * exp(-n/3) for n = the smaller read count of the first and last third. The
 * crossing is the split of the bins where the mean balance after minus the
 * mean before is largest in the direction of D.
 */
export function decide(track: Track, params: TransitionParams, final: boolean): Verdict {
  const { bins, wIn, wOut, nIn, nOut } = track;
  const n = bins.length;
  let reads = 0;
  for (let i = 0; i < n; i++) reads += nIn[i]! + nOut[i]!;
  if (reads === 0) return { kind: 'NONE', reason: 'NO_READS' };
  // Levels of the thirds; a bin straddling a third's edge is split by its reads.
  const level = [0, 0, 0];
  const count = [0, 0, 0];
  let seen = 0;
  for (let i = 0; i < n; i++) {
    const c = nIn[i]! + nOut[i]!;
    const b = balanceOf(wIn[i]!, wOut[i]!);
    let left = c;
    while (left > 0) {
      const third = Math.min(2, Math.floor((seen * 3) / reads));
      const edge = ((third + 1) * reads) / 3;
      const take = third === 2 ? left : Math.min(left, Math.max(edge - seen, 1e-9));
      level[third]! += b * take;
      count[third]! += take;
      seen += take;
      left -= take;
    }
  }
  const [S, M, E] = level.map((l, i) => (count[i]! > 0 ? l / count[i]! : 0)) as [number, number, number];
  const shift = E - S;
  if (Math.abs(shift) < params.minBalanceShift) {
    const turned = Math.abs(M - S) >= params.minBalanceShift && Math.abs(M - E) >= params.minBalanceShift && Math.sign(M - S) === Math.sign(M - E);
    return { kind: 'NONE', reason: turned ? 'TURNED_BACK' : 'ONE_SIDE' };
  }
  const dest: Side = shift > 0 ? 1 : -1;
  // A passage starts on the source side and ends on the destination side, each by a third of minBalanceShift; a tag
  // that only drifts on one side or in the middle (RSSI noise, a pallet nudged in the doorway) does not cross zero so.
  const margin = params.minBalanceShift / 3;
  if (dest * S > -margin || dest * E < margin) return { kind: 'NONE', reason: 'ONE_SIDE' };
  if (dest === track.side) return { kind: 'NONE', reason: 'ALREADY_THERE' };
  // The crossing: the split maximising dest x (mean balance after - mean before) x sqrt(reads before x reads after).
  let totalB = 0;
  for (let i = 0; i < n; i++) totalB += balanceOf(wIn[i]!, wOut[i]!) * (nIn[i]! + nOut[i]!);
  let bestSplit = 1;
  let best = -Infinity;
  let beforeB = 0;
  let beforeC = 0;
  for (let k = 1; k < n; k++) {
    const c = nIn[k - 1]! + nOut[k - 1]!;
    beforeB += balanceOf(wIn[k - 1]!, wOut[k - 1]!) * c;
    beforeC += c;
    const afterC = reads - beforeC;
    if (beforeC === 0 || afterC === 0) continue;
    // Weighted by the sizes of both parts (a t-statistic's numerator): a split next to an end is not favoured by one odd bin.
    const gain = dest * ((totalB - beforeB) / afterC - beforeB / beforeC) * Math.sqrt(beforeC * afterC);
    if (gain > best) {
      best = gain;
      bestSplit = k;
    }
  }
  if (!final && !settled(track, dest, bestSplit, params)) return { kind: 'NONE', reason: 'NOT_SETTLED' };
  const evidence = 1 - Math.exp(-Math.min(count[0]!, count[2]!) / 3);
  const confidence = Math.round(Math.min(1, Math.abs(shift) / FULL_SHIFT) * evidence * 100) / 100;
  if (confidence < params.minConfidence) return { kind: 'NONE', reason: 'LOW_CONFIDENCE' };
  const split = Math.min(bestSplit, n - 1);
  const at = n < 2 ? bins[0]! * BIN_MS : Math.round(((bins[split - 1]! + 1 + bins[split]!) / 2) * BIN_MS);
  return { kind: 'TRANSITION', destination: destinationOf(dest), confidence, at, fromBin: bins[split]! };
}

/** A shift of the balance this large (from clearly one side to clearly the other) is full confidence. */
const FULL_SHIFT = 0.8;

/**
 * Decided before the tag goes quiet only when it crossed at least settleMs
 * ago and the bins of the last settleMs lean to the destination side by at
 * least half of minBalanceShift: a tag on its way back does not qualify.
 */
function settled(track: Track, dest: Side, split: number, params: TransitionParams): boolean {
  const { bins, wIn, wOut, nIn, nOut } = track;
  const n = bins.length;
  const last = bins[n - 1]!;
  if ((last - bins[Math.min(split, n - 1)]! + 1) * BIN_MS < params.settleMs) return false;
  let sum = 0;
  let reads = 0;
  for (let i = n - 1; i >= 0 && (last - bins[i]! + 1) * BIN_MS <= params.settleMs; i--) {
    const c = nIn[i]! + nOut[i]!;
    sum += balanceOf(wIn[i]!, wOut[i]!) * c;
    reads += c;
  }
  return reads > 0 && (dest * sum) / reads >= params.minBalanceShift / 2;
}
