// Engine snapshots: the whole EngineState but the job contexts (rebuilt from
// the config on load), so a restart neither replays all history nor loses
// lastSeen, pending compute windows and next computation times
// (docs/item-processing.md, "Snapshots").
//
// Encoding: the items go in columnar chunks (strings that repeat, such as
// job, zone, floor and facility, as indexes into a per-chunk table; numbers in
// a Float64Array) serialized with v8.serialize: about half the size and time
// of serializing the item objects. Capturing is synchronous and cheap (item
// states are immutable objects, replaced on every write, so copying the
// references is a consistent picture); encoding runs chunk by chunk, yielding
// between chunks, so the engine keeps working while a snapshot is written.
import { deserialize, serialize } from 'node:v8';
import * as t from 'io-ts';
import { isLeft } from 'fp-ts/Either';
import { ConfigEntryCodec } from './configuration';
import { IndexedView } from './expiry';
import { OpenPassagesCodec } from './threshold/passages';
import type { EngineState, InventoryCandidate, ItemState, ItemView, JobContext, LocationSample } from './types';

/** Items per encoded chunk: small enough that encoding one blocks the engine for a few ms only. */
export const CHUNK_ITEMS = 20_000;

/** Where in ENGINE_STREAM a snapshot stands: the state right after this event was appended. */
export const SnapshotPositionCodec = t.type({
  /** ENGINE_STREAM revision (decimal string) of the last ItemsChanged the state includes. */
  revision: t.string,
  /** That event's id: a snapshot of another log (stream reset, DATA_DIR replaced) does not match it. */
  eventId: t.string,
  /** That event's inputPosition: where the input resumes. */
  inputPosition: t.string,
});
export type SnapshotPosition = t.TypeOf<typeof SnapshotPositionCodec>;

const nullableNumber = t.union([t.number, t.null]);
const nullableString = t.union([t.string, t.null]);
const CandidateCodec = t.type({ time: t.number, reader: t.string, antennaId: t.number, peakRssi: t.number, tid: nullableString });
const SampleCodec = t.type({ time: t.number, x: t.number, y: t.number, floor: nullableString, tid: nullableString });
const RuntimeCodec = t.type({
  jobId: t.string,
  candidates: t.array(t.tuple([t.string, t.array(CandidateCodec)])),
  samples: t.array(t.tuple([t.string, t.array(SampleCodec)])),
  nextComputeAt: nullableNumber,
});
type EncodedRuntime = t.TypeOf<typeof RuntimeCodec>;
const RuntimesCodec = t.array(RuntimeCodec);

/** What a snapshot holds besides the items. */
export const SnapshotHeaderCodec = t.intersection([
  t.type({
    position: SnapshotPositionCodec,
    /** Wall-clock time the snapshot was taken (epoch ms), for logs. */
    takenAt: t.number,
    /** Job ids of the isolated views, in the state's order. */
    isolated: t.array(t.string),
    items: t.number,
    chunks: t.number,
  }),
  // Optional so snapshots written before it still load: their engine carried no passages anywhere, so none were open for them.
  t.partial({
    /** The open threshold passages at the snapshot's position. */
    passages: OpenPassagesCodec,
    /**
     * The engine's configuration at the snapshot's position (./configuration.ts).
     * Snapshots written before the engine folded its configuration have none:
     * a run does not use them (restore.ts).
     */
    configuration: t.array(ConfigEntryCodec),
  }),
]);
export type SnapshotHeader = t.TypeOf<typeof SnapshotHeaderCodec>;

/** A consistent picture of the state, taken between two engine steps. */
export interface CapturedState {
  readonly views: ReadonlyArray<{ readonly view: string | null; readonly items: readonly ItemState[] }>;
  readonly isolated: readonly string[];
  readonly runtimes: readonly EncodedRuntime[];
}

/** Copies what a snapshot needs; O(items) reference copies, no encoding. */
export function captureState(state: EngineState): CapturedState {
  const views = [{ view: null, items: [...state.shared.values()] }, ...[...state.isolated].map(([jobId, v]) => ({ view: jobId, items: [...v.values()] }))];
  // Sample lists are appended in place (location.ts): copy them; candidate lists and their entries are replaced, never changed.
  const runtimes = [...state.jobs].map(([jobId, r]) => ({
    jobId,
    candidates: [...r.candidates].map(([epc, list]): [string, InventoryCandidate[]] => [epc, list.slice()]),
    samples: [...r.samples].map(([epc, list]): [string, LocationSample[]] => [epc, list.slice()]),
    nextComputeAt: r.nextComputeAt ?? null,
  }));
  return { views, isolated: [...state.isolated.keys()], runtimes };
}

export function chunkCount(captured: CapturedState): number {
  return captured.views.reduce((n, v) => n + Math.ceil(v.items.length / CHUNK_ITEMS), 0);
}

const yieldToEngine = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The encoded sections of a snapshot: the item chunks, then the job
 * runtimes. Yields to the event loop before each chunk.
 */
export async function* encodeSections(captured: CapturedState): AsyncGenerator<Buffer> {
  for (const { view, items } of captured.views) {
    for (let i = 0; i < items.length; i += CHUNK_ITEMS) {
      await yieldToEngine();
      yield encodeChunk(view, items.slice(i, i + CHUNK_ITEMS));
    }
  }
  await yieldToEngine();
  yield serialize(captured.runtimes);
}

// Per item: 4 string-table indexes (jobId, zone, floor, facility; -1 = null)
// and 4 numbers (x, y, lastModifiedTime, lastSeen; NaN = null).
function encodeChunk(view: string | null, items: readonly ItemState[]): Buffer {
  const table = new Map<string, number>();
  const code = (s: string | null): number => {
    if (s === null) return -1;
    let k = table.get(s);
    if (k === undefined) {
      k = table.size;
      table.set(s, k);
    }
    return k;
  };
  const n = items.length;
  const epcs = new Array<string>(n);
  const tids = new Array<string | null>(n);
  const codes = new Int32Array(n * 4);
  const nums = new Float64Array(n * 4);
  items.forEach((it, j) => {
    epcs[j] = it.epc;
    tids[j] = it.tid;
    codes[j * 4] = code(it.jobId);
    codes[j * 4 + 1] = code(it.zone);
    codes[j * 4 + 2] = code(it.floor);
    codes[j * 4 + 3] = code(it.facility);
    nums[j * 4] = it.x ?? NaN;
    nums[j * 4 + 1] = it.y ?? NaN;
    nums[j * 4 + 2] = it.lastModifiedTime;
    nums[j * 4 + 3] = it.lastSeen;
  });
  return serialize({ view, strings: [...table.keys()], epcs, tids, codes, nums });
}

export class SnapshotFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotFormatError';
  }
}

interface DecodedChunk {
  readonly view: string | null;
  readonly strings: string[];
  readonly epcs: string[];
  readonly tids: Array<string | null>;
  readonly codes: Int32Array;
  readonly nums: Float64Array;
}

function isChunk(v: unknown): v is DecodedChunk {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  if (!(c['view'] === null || typeof c['view'] === 'string')) return false;
  if (!Array.isArray(c['strings']) || !c['strings'].every((s) => typeof s === 'string')) return false;
  if (!Array.isArray(c['epcs']) || !Array.isArray(c['tids'])) return false;
  if (!(c['codes'] instanceof Int32Array) || !(c['nums'] instanceof Float64Array)) return false;
  const n = c['epcs'].length;
  return c['tids'].length === n && c['codes'].length === n * 4 && c['nums'].length === n * 4;
}

/** Decodes a snapshot's sections into a state; the job contexts come from `contextOf` (jobs without one are left out). */
export function decodeState(header: SnapshotHeader, sections: readonly Buffer[], contextOf: (jobId: string) => JobContext | undefined): EngineState {
  if (sections.length !== header.chunks + 1) throw new SnapshotFormatError(`expected ${header.chunks + 1} sections, found ${sections.length}`);
  const shared = new IndexedView<ItemState>();
  const isolated = new Map<string, ItemView>(header.isolated.map((jobId) => [jobId, new IndexedView<ItemState>()]));
  let count = 0;
  for (const section of sections.slice(0, header.chunks)) {
    const chunk: unknown = deserialize(section);
    if (!isChunk(chunk)) throw new SnapshotFormatError('an item chunk does not have the expected shape');
    const view = chunk.view === null ? shared : isolated.get(chunk.view);
    if (view === undefined) throw new SnapshotFormatError(`items of an isolated view not in the header: ${chunk.view}`);
    const str = (k: number | undefined): string | null => (k === undefined || k < 0 ? null : (chunk.strings[k] ?? null));
    const num = (x: number | undefined): number | null => (x === undefined || Number.isNaN(x) ? null : x);
    chunk.epcs.forEach((epc, j) => {
      const jobId = str(chunk.codes[j * 4]);
      const zone = str(chunk.codes[j * 4 + 1]);
      const tid = chunk.tids[j];
      if (typeof epc !== 'string' || jobId === null || zone === null || (tid !== null && typeof tid !== 'string')) {
        throw new SnapshotFormatError(`item ${j} of a chunk is malformed`);
      }
      view.set(epc, {
        epc,
        tid: tid ?? null,
        jobId,
        zone,
        floor: str(chunk.codes[j * 4 + 2]),
        facility: str(chunk.codes[j * 4 + 3]),
        x: num(chunk.nums[j * 4]),
        y: num(chunk.nums[j * 4 + 1]),
        lastModifiedTime: chunk.nums[j * 4 + 2] ?? NaN,
        lastSeen: chunk.nums[j * 4 + 3] ?? NaN,
      });
    });
    count += chunk.epcs.length;
  }
  if (count !== header.items) throw new SnapshotFormatError(`header says ${header.items} items, chunks hold ${count}`);
  const runtimes = RuntimesCodec.decode(deserialize(sections[header.chunks] as Buffer));
  if (isLeft(runtimes)) throw new SnapshotFormatError('the job runtimes do not have the expected shape');
  const state: EngineState = { shared, isolated, jobs: new Map() };
  for (const r of runtimes.right) {
    const ctx = contextOf(r.jobId);
    // A job whose context is gone (recipe or job deleted) places nothing any more, as in the handler.
    if (ctx === undefined) continue;
    state.jobs.set(r.jobId, { ctx, candidates: new Map(r.candidates), samples: new Map(r.samples), nextComputeAt: r.nextComputeAt ?? undefined });
  }
  return state;
}

/** Job ids whose runtime a snapshot holds (their contexts are needed to decode it). */
export function snapshotJobIds(header: SnapshotHeader, sections: readonly Buffer[]): string[] {
  const runtimes = RuntimesCodec.decode(deserialize(sections[header.chunks] ?? Buffer.alloc(0)));
  if (isLeft(runtimes)) throw new SnapshotFormatError('the job runtimes do not have the expected shape');
  return runtimes.right.map((r) => r.jobId);
}
