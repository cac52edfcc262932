// Engine snapshots: a state written to disk and read back continues exactly
// as the state that never left memory; damaged or foreign files are refused.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineState } from '../../src/engine';
import { captureState, chunkCount, decodeState, encodeSections, type SnapshotHeader } from '../../src/engine/snapshot';
import { CURRENT_FILE, PREVIOUS_FILE, readSnapshots, writeSnapshot } from '../../src/engine/snapshot-store';
import { Harness, MIN, at, inventoryRecipe, job, reader } from './fixtures';
import { jobsOf, runSteps, scenarioSteps } from './scenarios';

const position = (revision: number): SnapshotHeader['position'] => ({ revision: String(revision), eventId: `event-${revision}`, inputPosition: String(1000 + revision) });

async function save(dir: string, state: EngineState, revision: number): Promise<void> {
  const captured = captureState(state);
  const header: SnapshotHeader = { position: position(revision), takenAt: 0, isolated: [...captured.isolated], items: captured.views.reduce((n, v) => n + v.items.length, 0), chunks: chunkCount(captured) };
  await writeSnapshot(dir, header, encodeSections(captured));
}

async function only(dir: string): Promise<[SnapshotHeader, readonly Buffer[]]> {
  const [newest] = await readSnapshots(dir);
  if (newest?.ok !== true) throw new Error('no snapshot');
  return [newest.snapshot.header, newest.snapshot.sections];
}

async function load(dir: string): Promise<{ revision: string; state: EngineState }> {
  const [newest] = await readSnapshots(dir);
  if (newest?.ok !== true) throw new Error(`no snapshot: ${JSON.stringify(newest)}`);
  const contexts = new Map(jobsOf().map((c) => [c.jobId, c]));
  return { revision: newest.snapshot.header.position.revision, state: decodeState(newest.snapshot.header, newest.snapshot.sections, (id) => contexts.get(id)) };
}

describe('engine snapshots', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tagtrail-snap-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  for (const seed of [3, 7, 11, 19]) {
    it(`seed ${seed}: a state restored from a snapshot half-way gives the same later changes and states as one that never stopped`, async () => {
      const steps = scenarioSteps(seed, 1200, { epcs: 40, endJobs: true });
      const uninterrupted = runSteps(new Harness(), steps);
      const restarted = runSteps(new Harness(), steps.slice(0, 600));
      const before = restarted.changes.length;
      await save(dir, restarted.state, 1);
      restarted.state = (await load(dir)).state;
      runSteps(restarted, steps.slice(600));
      expect(restarted.changes.length - before).to.be.greaterThan(20);
      expect(restarted.changes).to.deep.equal(uninterrupted.changes);
      expect([...restarted.state.shared]).to.deep.equal([...uninterrupted.state.shared]);
      expect([...restarted.state.isolated].map(([k, v]) => [k, [...v]])).to.deep.equal([...uninterrupted.state.isolated].map(([k, v]) => [k, [...v]]));
      const runtimes = (s: EngineState): unknown => [...s.jobs].map(([k, r]) => [k, [...r.candidates], [...r.samples], r.nextComputeAt]);
      expect(runtimes(restarted.state)).to.deep.equal(runtimes(uninterrupted.state));
    });
  }

  it('keeps lastSeen: an item read often but not changed does not expire early after a restore', async () => {
    const ctx = job('inv', 'F', inventoryRecipe({ tagExpiryMs: 30_000, tagHeartbeatMs: 10 * MIN * 1000 }), { readers: { r1: reader(1, 1, null, { readerZone: 'Z' }) } });
    const h = new Harness();
    for (let s = 0; s <= 60; s += 10) h.read(ctx, 'r1', [{ epc: 'E1', t: s }], s);
    expect(h.changes.map((c) => c.kind)).to.deep.equal(['FIRST_SEEN']); // later reads only move lastSeen
    await save(dir, h.state, 1);
    h.state = decodeState(...(await only(dir)), (id) => (id === 'inv' ? ctx : undefined));
    expect(h.tick(85)).to.deep.equal([]); // 85 s after the last change, 25 s after the last read
    expect(h.tick(90).map((c) => [c.kind, c.observationTime])).to.deep.equal([['EXPIRED', at(90)]]);
  });

  it('keeps the previous snapshot; a damaged newest one is refused and the previous one still loads', async () => {
    const steps = scenarioSteps(5, 600, { epcs: 20 });
    const h = runSteps(new Harness(), steps.slice(0, 300));
    await save(dir, h.state, 1);
    runSteps(h, steps.slice(300));
    await save(dir, h.state, 2);
    expect((await load(dir)).revision).to.equal('2');
    const file = join(dir, CURRENT_FILE);
    const bytes = readFileSync(file);
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = (bytes[middle] ?? 0) ^ 0xff;
    writeFileSync(file, bytes);
    const [newest, previous] = await readSnapshots(dir);
    expect(newest).to.deep.include({ ok: false, file });
    expect(newest?.ok === false ? newest.reason : '').to.match(/checksum/);
    expect(previous?.ok === true ? previous.snapshot.header.position.revision : undefined).to.equal('1');
    expect(previous?.ok === true ? previous.snapshot.file : undefined).to.equal(join(dir, PREVIOUS_FILE));
  });

  it('refuses a truncated file, a file of another format version and a file that is not a snapshot', async () => {
    const h = runSteps(new Harness(), scenarioSteps(9, 300));
    await save(dir, h.state, 1);
    const file = join(dir, CURRENT_FILE);
    const good = readFileSync(file);
    const reasons: string[] = [];
    const attempt = async (data: Buffer): Promise<void> => {
      writeFileSync(file, data);
      const [newest] = await readSnapshots(dir);
      reasons.push(newest?.ok === false ? newest.reason : 'accepted');
    };
    await attempt(good.subarray(0, good.length - 100));
    const otherVersion = Buffer.from(good);
    otherVersion.writeUInt32BE(99, 8);
    await attempt(otherVersion);
    await attempt(Buffer.from('{"not":"a snapshot"}'));
    expect(reasons).to.deep.equal(['checksum mismatch (incomplete or damaged file)', 'format version 99, this engine reads 1', 'not an engine snapshot']);
  });

  it('refuses a snapshot whose header does not decode, naming the field', async () => {
    const header = { position: position(1), takenAt: 0, isolated: [], items: 'many', chunks: 0 } as unknown as SnapshotHeader;
    await writeSnapshot(dir, header, (async function* () {})());
    const [newest] = await readSnapshots(dir);
    expect(newest?.ok === false ? newest.reason : 'accepted').to.match(/^the header does not decode: items: expected number, got "many"/);
  });

  it('an empty directory has no snapshot', async () => {
    expect(await readSnapshots(join(dir, 'missing'))).to.deep.equal([]);
  });
});
