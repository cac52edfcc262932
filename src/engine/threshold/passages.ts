// Open threshold passages (tracker.ts) as data: what the engine's output and
// its snapshots carry so that a passage seen half before a restart and half
// after is decided once, on all its reads (docs/item-processing.md,
// "Threshold transitions"). Thresholds are named by id, not by their index in
// the job's context, so a context rebuilt after a configuration change still
// places them (a threshold no longer watched drops its tracks). JSON-safe:
// the "none yet" -Infinity values travel as null.
import * as t from 'io-ts';

const nullableNumber = t.union([t.number, t.null]);
const numbers = t.array(t.number);

export const OpenTrackCodec = t.type({
  thresholdId: t.number,
  epc: t.string,
  bins: numbers,
  wIn: numbers,
  wOut: numbers,
  nIn: numbers,
  nOut: numbers,
  lastRead: nullableNumber,
  lastArrival: nullableNumber,
  floorBin: nullableNumber,
  side: t.union([t.literal(1), t.literal(-1), t.null]),
  dirty: t.boolean,
});

export const OpenPassagesJobCodec = t.type({
  jobId: t.string,
  /** [thresholdId, newest reader time of the door]. */
  doorTime: t.array(t.tuple([t.number, t.number])),
  /** [EPC, TID] of tags with an open track. */
  tids: t.array(t.tuple([t.string, t.string])),
  tracks: t.array(OpenTrackCodec),
});

/** Every THRESHOLD job's open tracks; an empty list: none open. */
export const OpenPassagesCodec = t.array(OpenPassagesJobCodec);
export type OpenPassages = t.TypeOf<typeof OpenPassagesCodec>;

/** -Infinity (nothing yet) as null, and back. */
export const finiteOrNull = (n: number): number | null => (Number.isFinite(n) ? n : null);
export const orNone = (n: number | null): number => n ?? -Infinity;
