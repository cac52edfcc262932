// Restoring the engine state at start (src/engine/restore.ts) against the
// real embedded event store: ENGINE_STREAM holds the changes of a random
// scenario, snapshots are written beside it. The newest usable snapshot plus
// the events after it give the state; a damaged, foreign or ahead snapshot is
// passed over (the previous one, else the whole stream), never trusted.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendEvents } from '../../src/core/eventstore';
import { encodeEvent } from '../../src/core/events';
import { silent } from '../support/logger';
import type { EngineState, ItemState } from '../../src/engine';
import { ENGINE_STREAM, itemEvents } from '../../src/engine/events';
import { restoreState, type Restored } from '../../src/engine/restore';
import { captureState, chunkCount, encodeSections, type SnapshotPosition } from '../../src/engine/snapshot';
import { CURRENT_FILE, PREVIOUS_FILE, writeSnapshot } from '../../src/engine/snapshot-store';
import { emptyState } from '../../src/engine/state';
import type { OpenPassages } from '../../src/engine/threshold/passages';
import { startTestEventStore, type TestEventStore } from '../support/eventstore';
import { Harness } from './fixtures';
import { jobsOf, runSteps, scenarioSteps } from './scenarios';

const contexts = new Map(jobsOf().map((c) => [c.jobId, c]));

/** Writes a snapshot of `state`; without `passages` the header is the one written before open passages were kept. */
async function snapshot(dir: string, state: EngineState, position: SnapshotPosition, passages?: OpenPassages): Promise<void> {
  const captured = captureState(state);
  const items = captured.views.reduce((n, v) => n + v.items.length, 0);
  const header = { position, takenAt: 0, isolated: [...captured.isolated], items, chunks: chunkCount(captured), configuration: [], ...(passages === undefined ? {} : { passages }) };
  await writeSnapshot(dir, header, encodeSections(captured));
}

/** Where an item is, without lastSeen (which only a snapshot knows between changes). */
const placed = (view: ReadonlyMap<string, ItemState>): unknown[] => [...view.values()].map(({ lastSeen: _, ...rest }) => rest).sort((a, b) => (a.epc < b.epc ? -1 : 1));
const views = (s: EngineState): unknown => [placed(s.shared), [...s.isolated].map(([k, v]) => [k, placed(v)])];

describe('engine restore from snapshot + ENGINE_STREAM (real event store)', function () {
  this.timeout(120_000);
  let store: TestEventStore;
  let dir: string;
  /** Positions of the snapshots taken while appending: half-way and at the end. */
  let mid: SnapshotPosition;
  let end: SnapshotPosition;
  let live: Harness;
  let endRevision: bigint;

  before(async () => {
    store = await startTestEventStore();
    dir = mkdtempSync(join(tmpdir(), 'tagtrail-restore-'));
    const steps = scenarioSteps(21, 800, { epcs: 30 });
    live = new Harness();
    let revision: bigint | 'no_stream' = 'no_stream';
    for (let i = 0; i < steps.length; i++) {
      const before = live.changes.length;
      runSteps(live, steps.slice(i, i + 1));
      const changes = live.changes.slice(before);
      if (changes.length === 0) continue;
      const event = encodeEvent(itemEvents, { type: 'ItemsChanged', data: { inputPosition: String(1000 + i), at: 0, changes } });
      revision = (await appendEvents(store.client, ENGINE_STREAM, [event], revision)).nextExpectedRevision;
      const position = { revision: revision.toString(), eventId: event.id, inputPosition: String(1000 + i) };
      if (i >= 400 && mid === undefined) {
        mid = position;
        await snapshot(dir, live.state, mid);
      }
      end = position;
    }
    endRevision = BigInt(end.revision);
  });
  after(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const restore = (snapshotDir: string | undefined): Promise<Restored> =>
    restoreState(
      { client: store.client, logger: silent, snapshotDir, contextOf: (id) => Promise.resolve(contexts.get(id)), useOtherJobDataOf: (id) => Promise.resolve(contexts.get(id)?.useOtherJobData ?? true) },
      { revision: endRevision, inputPosition: end.inputPosition },
    );

  it('without a snapshot: the whole stream is replayed and places every item as the engine left it', async () => {
    const r = await restore(undefined);
    expect(r.snapshot).to.equal(undefined);
    expect(r.replayedEvents).to.equal(Number(endRevision) + 1);
    expect(views(r.state)).to.deep.equal(views(live.state));
  });

  it('from the half-way snapshot: only the events after it are replayed, same placements, the snapshot\'s job runtimes', async () => {
    const r = await restore(dir);
    expect(r.snapshot).to.deep.equal(mid);
    expect(r.replayedEvents).to.equal(Number(endRevision - BigInt(mid.revision)));
    expect(views(r.state)).to.deep.equal(views(live.state));
    expect([...r.state.jobs.keys()]).to.have.members([...live.state.jobs.keys()].filter((k) => r.jobIds.has(k)));
  });

  it('from a snapshot at the end of the stream: exactly the engine\'s state (lastSeen, windows, next computations), nothing replayed', async () => {
    await snapshot(dir, live.state, end);
    const r = await restore(dir);
    expect(r.snapshot).to.deep.equal(end);
    expect(r.replayedEvents).to.equal(0);
    expect([...r.state.shared]).to.deep.equal([...live.state.shared]);
    expect([...r.state.isolated].map(([k, v]) => [k, [...v]])).to.deep.equal([...live.state.isolated].map(([k, v]) => [k, [...v]]));
    const runtimes = (s: EngineState): unknown => [...s.jobs].map(([k, x]) => [k, [...x.candidates], [...x.samples], x.nextComputeAt]);
    expect(runtimes(r.state)).to.deep.equal(runtimes(live.state));
  });

  it('a damaged newest snapshot falls back to the previous one; both damaged, to the whole stream', async () => {
    const damage = (name: string): void => {
      const bytes = readFileSync(join(dir, name));
      const at = Math.floor(bytes.length / 3);
      bytes[at] = (bytes[at] ?? 0) ^ 0x55;
      writeFileSync(join(dir, name), bytes);
    };
    damage(CURRENT_FILE);
    const fromPrevious = await restore(dir);
    expect(fromPrevious.snapshot).to.deep.equal(mid);
    expect(views(fromPrevious.state)).to.deep.equal(views(live.state));
    damage(PREVIOUS_FILE);
    const fromStart = await restore(dir);
    expect(fromStart.snapshot).to.equal(undefined);
    expect(views(fromStart.state)).to.deep.equal(views(live.state));
  });

  it('a snapshot of another log (other event at its revision) or ahead of the stream is ignored', async () => {
    await snapshot(dir, live.state, { ...mid, eventId: crypto.randomUUID() });
    await snapshot(dir, live.state, { ...end, revision: (endRevision + 5n).toString() });
    const r = await restore(dir);
    expect(r.snapshot).to.equal(undefined);
    expect(r.replayedEvents).to.equal(Number(endRevision) + 1);
    expect(views(r.state)).to.deep.equal(views(live.state));
  });

  it('after a soft delete of the stream (factory reset) a snapshot of the deleted events is ignored and the state starts empty', async () => {
    await snapshot(dir, live.state, mid);
    await snapshot(dir, live.state, end);
    await store.client.deleteStream(ENGINE_STREAM);
    const fence = encodeEvent(itemEvents, { type: 'ItemsChanged', data: { inputPosition: '999999', at: 0, changes: [] } });
    const after = (await appendEvents(store.client, ENGINE_STREAM, [fence], 'any')).nextExpectedRevision;
    const r = await restoreState(
      { client: store.client, logger: silent, snapshotDir: dir, contextOf: (id) => Promise.resolve(contexts.get(id)), useOtherJobDataOf: () => Promise.resolve(true) },
      { revision: after, inputPosition: '999999' },
    );
    expect(r.snapshot).to.equal(undefined);
    expect(r.replayedEvents).to.equal(1);
    expect(r.state.shared.size).to.equal(0);
  });
});

describe('engine restore of open threshold passages (real event store)', function () {
  this.timeout(120_000);
  let store: TestEventStore;
  let dir: string;
  let revision: bigint | 'no_stream' = 'no_stream';
  let last: SnapshotPosition;

  /** One open passage of job `j` at threshold 7, read last at `lastRead`. */
  const open = (lastRead: number): OpenPassages => [
    {
      jobId: 'j',
      doorTime: [[7, lastRead]],
      tids: [],
      tracks: [{ thresholdId: 7, epc: 'E1', bins: [1, 2], wIn: [0, 2], wOut: [3, 0], nIn: [0, 2], nOut: [3, 0], lastRead, lastArrival: lastRead + 50, floorBin: null, side: null, dirty: true }],
    },
  ];
  const append = async (inputPosition: string, passages?: OpenPassages): Promise<void> => {
    const event = encodeEvent(itemEvents, { type: 'ItemsChanged', data: { inputPosition, at: 0, changes: [], ...(passages === undefined ? {} : { passages }) } });
    revision = (await appendEvents(store.client, ENGINE_STREAM, [event], revision)).nextExpectedRevision;
    last = { revision: revision.toString(), eventId: event.id, inputPosition };
  };
  const restore = (snapshotDir: string | undefined): Promise<Restored> =>
    restoreState(
      { client: store.client, logger: silent, snapshotDir, contextOf: () => Promise.resolve(undefined), useOtherJobDataOf: () => Promise.resolve(true) },
      { revision: BigInt(last.revision), inputPosition: last.inputPosition },
    );

  before(async () => {
    store = await startTestEventStore();
    dir = mkdtempSync(join(tmpdir(), 'tagtrail-restore-passages-'));
  });
  after(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the full replay, a snapshot at the end, and an older snapshot with the tail all give the last open passages; an old-format snapshot still loads', async () => {
    await append('10', open(250));
    await append('11'); // an event that changed no passage carries none
    expect((await restore(undefined)).passages).to.deep.equal(open(250));

    await snapshot(dir, emptyState(), last, open(250));
    const fromSnapshot = await restore(dir);
    expect(fromSnapshot.snapshot?.revision).to.equal(last.revision);
    expect(fromSnapshot.replayedEvents).to.equal(0);
    expect(fromSnapshot.passages).to.deep.equal(open(250));

    // The passage goes on after the snapshot: the tail replayed from it carries the newer state.
    await append('12', open(900));
    await append('13');
    const olderSnapshot = await restore(dir);
    expect(olderSnapshot.snapshot?.revision).to.equal('1');
    expect(olderSnapshot.passages).to.deep.equal(open(900));
    expect((await restore(undefined)).passages).to.deep.equal(open(900));

    // Decided: the next event says none is open.
    await append('14', []);
    expect((await restore(dir)).passages).to.deep.equal([]);

    // A snapshot written before passages were kept loads (none open for it).
    await snapshot(dir, emptyState(), last);
    await snapshot(dir, emptyState(), last);
    const oldFormat = await restore(dir);
    expect(oldFormat.snapshot?.revision).to.equal(last.revision);
    expect(oldFormat.passages).to.deep.equal([]);
  });
});
