// The threshold decider's rules, one by one, through the tracker as the engine
// feeds it (report columns in, transitions out), with hand-made reads of a
// door whose reader has antenna 1 facing IN, 2 facing OUT and 3 ignored.
import { expect } from 'chai';
import type { EngineReport } from '../../src/engine/report';
import { thresholdJobContext, type ThresholdJobContext } from '../../src/engine/threshold/context';
import { addRead, decide, newTrack, readWeight } from '../../src/engine/threshold/decide';
import { DEFAULT_TRANSITION_PARAMS, transitionParamsOf } from '../../src/engine/threshold/params';
import { ThresholdTracker, type ThresholdOutput } from '../../src/engine/threshold/tracker';
import { transitionIdOf } from '../../src/engine/threshold/transition';
import { itemEvents } from '../../src/engine/events';
import { OpenPassagesCodec } from '../../src/engine/threshold/passages';
import { isRight } from 'fp-ts/Either';
import type { ThresholdRecipe } from '../../src/recipes/model';

const IN = 1;
const OUT = 2;
const IGNORED = 3;
const T0 = 1_800_000_000_000;
const TAG = 'E28011606000020000000001';

function context(recipe: Partial<ThresholdRecipe> = {}): ThresholdJobContext {
  return thresholdJobContext({
    jobId: 'job-1',
    facility: 'F',
    recipe: { name: 'r', type: 'THRESHOLD', readerConfigurations: {}, thresholdIds: [], iterationDataLogEnabled: false, ...recipe },
    thresholds: [
      { id: 7, name: 'Dock door', facility: 'F', readerArrangement: 'OVERHEAD', readers: { door: { antennaConfigurationId: 1 } } },
      { id: 8, name: 'Elsewhere', facility: 'G', readerArrangement: 'OVERHEAD', readers: { other: { antennaConfigurationId: 1 } } },
    ],
    antennaConfigurations: [
      { id: 1, name: 'ac', side: 'LEFT', readerType: 'XARRAY', readerArrangement: 'OVERHEAD', in: [{ antennaId: IN }], out: [{ antennaId: OUT }], ignored: [{ antennaId: IGNORED }] },
    ],
    reportToDatabaseEnabled: true,
    reportToMessageQueueEnabled: true,
  });
}

/** A read: time after T0 (ms), antenna, RSSI. */
type Read = readonly [number, number, number];

function report(reads: readonly Read[], epc = TAG, reader = 'door'): EngineReport {
  return {
    reader,
    jobId: 'job-1',
    facility: 'F',
    epc: reads.map(() => epc),
    tid: undefined,
    antennaId: reads.map((r) => r[1]),
    peakRssi: reads.map((r) => r[2]),
    timeBase: T0,
    lastSeen: reads.map((r) => r[0]),
    firstSeen: reads.map((r) => r[0]),
    readCount: reads.map(() => 1),
    x: undefined,
    y: undefined,
  };
}

/** Reads on `antenna` every 100 ms from `from` to `to` (ms after T0), RSSI peaking in the middle. */
function pass(from: number, to: number, antenna: number, peak = -50): Read[] {
  const out: Read[] = [];
  const mid = (from + to) / 2;
  for (let t = from; t < to; t += 100) out.push([t, antenna, peak - (Math.abs(t - mid) / (to - from)) * 16]);
  return out;
}

const WALL_TAG = 'E28011606000020000000FFF';

/**
 * Plays the reads as reports of 500 ms windows arriving at their end, then
 * sweeps until `until` (ms after T0). Every window also has a read of a tag
 * on the wall by the ignored antenna, as a real door's reports do: it tells
 * how far the reader has reported (the quiet rule), and counts for nothing else.
 */
function play(reads: readonly Read[], until: number, ctx = context(), tracker = new ThresholdTracker(), from = 0): ThresholdOutput {
  const out: ThresholdOutput = { transitions: [], iterations: [] };
  const sorted = [...reads].sort((a, b) => a[0] - b[0]);
  for (let w = from; w <= until; w += 500) {
    const inWindow = sorted.filter((r) => r[0] >= w && r[0] < w + 500);
    tracker.ingest(report(inWindow), ctx, T0 + w + 500, out);
    tracker.ingest(report([[w + 250, IGNORED, -65]], WALL_TAG), ctx, T0 + w + 500, out);
    tracker.sweep(T0 + w + 500, out);
  }
  return out;
}

const only = (out: ThresholdOutput) => out.transitions.map((t) => [t.destination, t.thresholdId]);

describe('threshold decider', () => {
  it('a walk from the OUT side to the IN side is one transition to IN, at the crossing, with a clear confidence', () => {
    const out = play([...pass(0, 1500, OUT), ...pass(1500, 3000, IN)], 8000);
    expect(only(out)).to.deep.equal([['IN', 7]]);
    const [t] = out.transitions;
    expect(t!.confidence).to.be.greaterThan(0.8).and.at.most(1);
    expect(Math.abs(t!.observationTime - (T0 + 1500))).to.be.at.most(250);
    expect(t).to.include({ thresholdName: 'Dock door', epc: TAG, jobId: 'job-1', facility: 'F' });
    expect(t!.transitionId).to.equal(transitionIdOf('job-1', 7, TAG, t!.observationTime));
  });

  it('the other way is one transition to OUT', () => {
    expect(only(play([...pass(0, 1500, IN), ...pass(1500, 3000, OUT)], 8000))).to.deep.equal([['OUT', 7]]);
  });

  it('a tag that stays on one side produces nothing, however long it is read (a parked pallet, a tag on the wall)', () => {
    const out = play(pass(0, 60_000, IN, -45), 65_000);
    expect(out.transitions).to.deep.equal([]);
  });

  it('a tag parked between both sides, read by both alike, produces nothing', () => {
    const reads: Read[] = [];
    for (let t = 0; t < 30_000; t += 100) reads.push([t, t % 200 === 0 ? IN : OUT, -55 + ((t / 100) % 3)]);
    expect(play(reads, 35_000).transitions).to.deep.equal([]);
  });

  it('a tag that turns back before settling on the far side produces nothing (neither transition)', () => {
    const reads = [...pass(0, 1500, OUT), ...pass(1500, 2500, IN), ...pass(2500, 4000, OUT)];
    expect(play(reads, 9000).transitions).to.deep.equal([]);
  });

  it('a tag that settles on the far side and then comes back produces both transitions, in order', () => {
    const reads = [...pass(0, 1500, OUT), ...pass(1500, 5000, IN), ...pass(5000, 6500, OUT)];
    expect(only(play(reads, 12_000))).to.deep.equal([['IN', 7], ['OUT', 7]]);
  });

  it('two passages apart (the tag out of the field in between) are two transitions', () => {
    const reads = [...pass(0, 1500, OUT), ...pass(1500, 3000, IN), ...pass(10_000, 11_500, IN), ...pass(11_500, 13_000, OUT)];
    expect(only(play(reads, 20_000))).to.deep.equal([['IN', 7], ['OUT', 7]]);
  });

  it('a tag settling on the far side but still read there is decided without waiting for it to go quiet', () => {
    const out: ThresholdOutput = { transitions: [], iterations: [] };
    const tracker = new ThresholdTracker();
    const ctx = context();
    // OUT for 1.5 s, then IN for 20 s: the tag stays in view on the IN side (a shelf beside the door).
    const reads = [...pass(0, 1500, OUT), ...pass(1500, 21_500, IN, -50)];
    for (let w = 0; w < 6000; w += 500) tracker.ingest(report(reads.filter((r) => r[0] >= w && r[0] < w + 500)), ctx, T0 + w + 500, out);
    expect(only(out)).to.deep.equal([['IN', 7]]);
  });

  it('stray reads from the other side do not make or break a passage', () => {
    const strays: Read[] = [[600, IN, -72], [2400, OUT, -73], [2700, OUT, -71]];
    expect(only(play([...pass(0, 1500, OUT), ...pass(1500, 3000, IN), ...strays], 8000))).to.deep.equal([['IN', 7]]);
    // A tag passing by on the OUT side only, heard twice by the IN side's back lobe.
    expect(play([...pass(0, 3000, OUT), [1400, IN, -70], [1500, IN, -72]], 8000).transitions).to.deep.equal([]);
  });

  it('reads of ignored antennas, of antennas in no list and of readers outside the job count for nothing', () => {
    expect(play([...pass(0, 1500, IGNORED), ...pass(1500, 3000, IN)], 8000).transitions).to.deep.equal([]);
    expect(play([...pass(0, 1500, 4), ...pass(1500, 3000, IN)], 8000).transitions).to.deep.equal([]);
    const tracker = new ThresholdTracker();
    const out: ThresholdOutput = { transitions: [], iterations: [] };
    const ctx = context();
    tracker.ingest(report([...pass(0, 1500, OUT), ...pass(1500, 3000, IN)], TAG, 'other'), ctx, T0 + 3000, out);
    tracker.sweep(T0 + 10_000, out);
    expect(out.transitions, 'reader "other" is in a threshold of another facility').to.deep.equal([]);
  });

  it('polarized antenna ids count as their port', () => {
    const out = play([...pass(0, 1500, 1000 + OUT), ...pass(1500, 3000, 2000 + IN)], 8000);
    expect(only(out)).to.deep.equal([['IN', 7]]);
  });

  it('one read a side is not a passage: confidence grows with the reads', () => {
    expect(play([[500, OUT, -50], [1500, IN, -50]], 8000).transitions).to.deep.equal([]);
    const lax = context({ transitionParameters: { minConfidence: 0 } });
    const few = play([[500, OUT, -50], [1500, IN, -50]], 8000, lax).transitions[0];
    const many = play([...pass(0, 1500, OUT), ...pass(1500, 3000, IN)], 8000, lax).transitions[0];
    expect(few!.confidence).to.be.lessThan(many!.confidence);
  });

  it('quiet is told by the door\'s own reports: a tag is decided once its readers reported quietSeconds past its last read without it', () => {
    const ctx = context({ transitionParameters: { quietSeconds: 3 } });
    const tracker = new ThresholdTracker();
    const out: ThresholdOutput = { transitions: [], iterations: [] };
    tracker.ingest(report([...pass(0, 1000, OUT), ...pass(1000, 2000, IN)]), ctx, T0 + 2000, out);
    // The reader's next reports come late (a slow network): however late, they have not covered 3 s past the last read.
    tracker.ingest(report([[4800, IGNORED, -65]], WALL_TAG), ctx, T0 + 9000, out);
    tracker.sweep(T0 + 9000, out);
    expect(out.transitions).to.deep.equal([]);
    tracker.ingest(report([[4950, IGNORED, -65]], WALL_TAG), ctx, T0 + 9500, out);
    expect(only(out)).to.deep.equal([['IN', 7]]);
    expect(tracker.openTracks).to.equal(0);
  });

  it('a door whose readers report nothing more is decided quietSeconds + 5 s after the last read arrived', () => {
    const tracker = new ThresholdTracker();
    const out: ThresholdOutput = { transitions: [], iterations: [] };
    tracker.ingest(report([...pass(0, 1000, OUT), ...pass(1000, 2000, IN)]), context(), T0 + 2000, out);
    tracker.sweep(T0 + 8400, out);
    expect(out.transitions).to.deep.equal([]);
    tracker.sweep(T0 + 8500, out);
    expect(only(out)).to.deep.equal([['IN', 7]]);
  });

  it('a job that ends decides its open passages', () => {
    const tracker = new ThresholdTracker();
    const out: ThresholdOutput = { transitions: [], iterations: [] };
    tracker.ingest(report([...pass(0, 1000, OUT), ...pass(1000, 2000, IN)]), context(), T0 + 2000, out);
    expect(out.transitions).to.deep.equal([]);
    tracker.endJob('job-1', T0 + 2100, out);
    expect(only(out)).to.deep.equal([['IN', 7]]);
    expect(tracker.openTracks).to.equal(0);
  });

  it('thresholdIds restricts the thresholds a job watches', () => {
    expect(play([...pass(0, 1500, OUT), ...pass(1500, 3000, IN)], 8000, context({ thresholdIds: [99] })).transitions).to.deep.equal([]);
  });

  it('iterationDataLogEnabled records every decision with its evidence', () => {
    const out = play([...pass(0, 1500, OUT), ...pass(1500, 3000, IN), ...pass(20_000, 21_000, IN)], 25_000, context({ iterationDataLogEnabled: true }));
    expect(out.iterations.filter((i) => i.epc === TAG).map((i) => i.outcome)).to.deep.equal(['TRANSITION', 'ONE_SIDE']);
    expect(out.iterations[0]).to.include({ thresholdId: 7, epc: TAG, destination: 'IN', readsIn: 15, readsOut: 15 });
  });

  it('the same reads give the same transitions (ids included)', () => {
    const reads = [...pass(0, 1500, OUT), ...pass(1500, 3000, IN)];
    expect(play(reads, 8000)).to.deep.equal(play(reads, 8000));
  });

  describe('parts', () => {
    it('a read 20 dB stronger weighs ten times as much; read counts add', () => {
      expect(readWeight(-40, 1) / readWeight(-60, 1)).to.be.closeTo(10, 1e-9);
      expect(readWeight(-60, 3)).to.be.closeTo(3, 1e-9);
    });

    it('reads arriving out of order land in their time bin', () => {
      const a = newTrack();
      const b = newTrack();
      const reads: Array<[number, 1 | -1]> = [[100, -1], [900, -1], [1600, 1], [2400, 1], [2000, 1], [300, -1]];
      for (const [t, s] of reads) addRead(a, t, s, 1, 1);
      for (const [t, s] of [...reads].sort((x, y) => x[0] - y[0])) addRead(b, t, s, 1, 1);
      expect(a.bins).to.deep.equal(b.bins);
      expect(decide(a, DEFAULT_TRANSITION_PARAMS, true)).to.deep.equal(decide(b, DEFAULT_TRANSITION_PARAMS, true));
    });

    it('recipe parameters are seconds; absent ones take the defaults', () => {
      expect(transitionParamsOf({ quietSeconds: 2.5 })).to.deep.equal({ ...DEFAULT_TRANSITION_PARAMS, quietMs: 2500 });
      expect(transitionParamsOf(undefined)).to.deep.equal(DEFAULT_TRANSITION_PARAMS);
    });
  });

  describe('open passages across a restart (tracker openPassages / restore)', () => {
    const firstHalf = pass(0, 1500, OUT);
    const secondHalf = pass(1500, 3000, IN);
    /** Plays the first half on one tracker, then hands its open passages, as the output carries them (JSON, decoded), to a new one. */
    function restarted(ctx = context()): ThresholdTracker {
      const before = new ThresholdTracker();
      const out = play(firstHalf, 1000, ctx, before);
      expect(out.transitions).to.deep.equal([]);
      expect(before.openTracks).to.be.greaterThan(0);
      const event = itemEvents.ItemsChanged.decode(JSON.parse(JSON.stringify({ inputPosition: '1', at: 0, changes: [], passages: before.openPassages() })));
      if (!isRight(event)) throw new Error('ItemsChanged with passages does not decode');
      const decoded = OpenPassagesCodec.decode(event.right.passages);
      if (!isRight(decoded)) throw new Error('passages do not decode');
      const after = new ThresholdTracker();
      after.restore(decoded.right, (jobId) => (jobId === ctx.jobId ? ctx : undefined));
      return after;
    }

    it('half a passage before the restart and half after is exactly one transition, the right way, at the crossing', () => {
      const out = play(secondHalf, 8000, context(), restarted(), 1500);
      expect(only(out)).to.deep.equal([['IN', 7]]);
      expect(Math.abs(out.transitions[0]!.observationTime - (T0 + 1500))).to.be.at.most(250);
    });

    it('without the carried passages the second half alone is no transition (what a restart lost)', () => {
      expect(play(secondHalf, 8000, context(), new ThresholdTracker(), 1500).transitions).to.deep.equal([]);
    });

    it('a job whose context is gone, or a threshold it no longer watches, drops its open tracks', () => {
      const ctx = context();
      const tracker = restarted(ctx);
      tracker.restore(tracker.openPassages(), () => undefined);
      expect(tracker.openTracks).to.equal(0);
      const other = context({ thresholdIds: [9] });
      const moved = restarted(ctx);
      moved.restore(moved.openPassages(), () => other);
      expect(moved.openTracks).to.equal(0);
    });
  });
});
