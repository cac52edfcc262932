// Engine snapshots in the running service: the engine snapshots after its
// appends (ENGINE_SNAPSHOT_EVERY_CHANGES=1 here), and a restart on the same
// data directory starts from the snapshot. What only a snapshot can carry
// survives: a tag read again and again without changing (reads that move
// only lastSeen, no output) expires by its LAST read after the restart, not
// by its last change (what a replay of ENGINE_STREAM alone gives). A damaged
// snapshot costs a replay and nothing else.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { SkewClock } from '../support/clock';
import { readStream } from '../../src/core/eventstore';
import { ENGINE_STREAM, itemEvents } from '../../src/engine/events';
import type { ItemChange } from '../../src/engine';
import { CURRENT_FILE, PREVIOUS_FILE, readSnapshots } from '../../src/engine/snapshot-store';
import { startTestApp, waitForCaughtUp, type TestApp } from '../support/app';
import { readLockHolder } from '../../src/core/dir-lock';
import { startEngineWorker } from '../../src/engine/worker';
import { silent } from '../support/logger';
import { agentSide, type AgentSide } from '../readerdefinitions/e2e-support';
import { epc, postReport, startInventoryJob, type RunningJob } from './e2e-support';
import { sleep, waitForValue } from '../support/wait';

const EXPIRY_MS = 6000;
/** One clock across the restarts: re-reads a second apart without waiting a second. */
const clock = new SkewClock();

describe('item engine snapshots across a restart (role engine)', function () {
  this.timeout(120_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'tagtrail-engine-snap-'));
  const snapshotDir = join(dataDir, 'engine-snapshots');
  const keyPrefix = `tagtrail-test-${crypto.randomUUID()}:`;
  const env = { DATA_DIR: dataDir, REDIS_KEY_PREFIX: keyPrefix, ENGINE_SNAPSHOT_EVERY_CHANGES: '1' };
  let app: TestApp;
  let side: AgentSide | undefined;
  let job: RunningJob;

  after(async () => {
    await side?.close();
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const changes = async (): Promise<ItemChange[]> => {
    const s = side ?? (side = await agentSide(app));
    return (await readStream(s.deps.client, ENGINE_STREAM, itemEvents)).events.flatMap((e) => e.data.changes);
  };
  const until = async (what: string, ok: (c: ItemChange[]) => boolean): Promise<ItemChange[]> =>
    waitForValue(what, changes, ok, { timeoutMs: 30_000, intervalMs: 200 });
  const restart = async (): Promise<void> => {
    await side?.close();
    side = undefined;
    await app.stop({ keepRedis: true });
    app = await startTestApp(env, { clock });
  };
  const history = (c: ItemChange[], e: string): string[] => c.filter((x) => x.epc === e && x.kind !== 'HEARTBEAT' && x.kind !== 'MOVED').map((x) => `${x.kind} ${x.fromZone}>${x.toZone}`);

  it('a tag read often but not changed does not expire early after a restart: it expires by its last read', async () => {
    app = await startTestApp(env, { clock });
    job = await startInventoryJob(app, { tagExpiryDuration: `PT${EXPIRY_MS / 1000}S`, tagHeartbeatDuration: 'PT10M' });
    const t0 = clock.now().getTime();
    await postReport(app, job, t0, 1, [epc(1)]);
    await until('first sighting', (c) => c.length === 1);
    // Re-reads in the same place: no change, no output, only lastSeen moves (in memory).
    let last = t0;
    for (let i = 1; i <= 3; i++) {
      clock.advance(1000);
      last = clock.now().getTime();
      await postReport(app, job, last, 1, [epc(1)]);
    }
    // An append after those reads: the snapshot taken after it holds epc 1's last read.
    await sleep(300);
    await postReport(app, job, clock.now().getTime(), 1, [epc(2)]);
    await until('second tag', (c) => c.length === 2);
    for (let i = 0; (await readSnapshots(snapshotDir)).length < 2 && i < 50; i++) await sleep(100);
    await restart();
    const after = await until('epc 1 expired', (c) => c.some((x) => x.epc === epc(1) && x.kind === 'EXPIRED'));
    const expired = after.find((x) => x.epc === epc(1) && x.kind === 'EXPIRED');
    // By the last read (what the snapshot kept), not by the first sighting (t0 + expiry, what a replay gives).
    expect(expired?.observationTime).to.equal(last + EXPIRY_MS);
    expect(history(after, epc(1))).to.deep.equal(['FIRST_SEEN ABSENT>DOCK', 'EXPIRED DOCK>ABSENT']);
  });

  it('damaged snapshots are passed over: the engine replays its stream and goes on without repeating history', async () => {
    await until('epc 2 expired', (c) => c.some((x) => x.epc === epc(2) && x.kind === 'EXPIRED'));
    // Here a snapshot follows every append: the one of the last append is on disk before the stop.
    const { revision } = await readStream((side ?? (side = await agentSide(app))).deps.client, ENGINE_STREAM, itemEvents);
    const latest = async () => (await readSnapshots(snapshotDir))[0];
    await waitForValue('the snapshot of the last append', latest, (n) => n?.ok === true && n.snapshot.header.position.revision === String(revision), { timeoutMs: 30_000 });
    await side?.close();
    side = undefined;
    await app.stop({ keepRedis: true });
    for (const name of [CURRENT_FILE, PREVIOUS_FILE]) {
      const file = join(snapshotDir, name);
      expect(existsSync(file), name).to.equal(true);
      const bytes = readFileSync(file);
      writeFileSync(file, bytes.subarray(0, bytes.length - 1));
    }
    app = await startTestApp(env, { clock });
    await postReport(app, job, clock.now().getTime(), 2, [epc(1), epc(3)]);
    const c = await until('after the replay', (x) => x.some((y) => y.epc === epc(3)));
    await waitForCaughtUp(app);
    const final = await changes();
    expect(final.length, 'nothing more').to.equal(c.length);
    expect(history(final, epc(1))).to.deep.equal(['FIRST_SEEN ABSENT>DOCK', 'EXPIRED DOCK>ABSENT', 'ZONE_CHANGE ABSENT>SHELF']);
    expect(history(final, epc(2))).to.deep.equal(['FIRST_SEEN ABSENT>DOCK', 'EXPIRED DOCK>ABSENT']);
    expect(history(final, epc(3))).to.deep.equal(['FIRST_SEEN ABSENT>SHELF']);
    // The engine wrote a fresh snapshot after its first append.
    const [newest] = await readSnapshots(snapshotDir);
    expect(newest?.ok).to.equal(true);
  });

  it('a second engine on the same snapshot directory waits for the one that holds it, and never runs meanwhile', async () => {
    expect(readLockHolder(snapshotDir).pid, 'the running engine holds its snapshot directory').to.equal(process.pid);
    const s = side ?? (side = await agentSide(app));
    const warnings: Array<{ msg: string; fields: unknown }> = [];
    const logger = { ...silent, warn: (msg: string, fields?: unknown) => warnings.push({ msg, fields }), child: () => logger };
    const second = startEngineWorker({ client: s.deps.client, logger, retryMs: 100, snapshots: { dir: snapshotDir, everyChanges: 1, everyMs: 0 } });
    try {
      await waitForValue('the second engine to be told', async () => warnings.length, (n) => n > 0, { timeoutMs: 10_000 });
      await sleep(500);
      expect(second.runs, 'runs of the second engine while the first holds the directory').to.equal(0);
      expect(warnings).to.have.length(1);
      expect(warnings[0]).to.deep.include({ msg: 'engine snapshot directory held by another process; waiting' });
    } finally {
      await second.stop();
    }
    expect(readLockHolder(snapshotDir).pid, 'the first engine still holds it').to.equal(process.pid);
  });
});
