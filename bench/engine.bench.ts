// npm run bench:engine — the item engine's restart and tick costs at
// BENCH_ENGINE_ITEMS items (default 1,000,000):
//   1. an engine state of that many items is built with the pure core
//      (INVENTORY reports of 1000 tags, one per second) and its changes
//      appended to ENGINE_STREAM of an embedded event store running in a
//      child process (bench/support/server.ts), as the engine does;
//   2. snapshot: capture time, encode + write time, file size, and the
//      longest event-loop stall while it is written (what the engine feels);
//   3. restart from the snapshot: BENCH_ENGINE_TAIL changes (default 100,000,
//      the default ENGINE_SNAPSHOT_EVERY_CHANGES: the worst case) are
//      appended after it, then restoreState = load + replay of that tail;
//   4. restart without snapshot: restoreState replaying the whole stream;
//   5. tick with the expiry index vs scanning every item (tick(state, now,
//      'scan'), the reference), with nothing due and with 1000 items due.
// Progress on stderr; figures on stdout as text and one JSON line.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { EventStoreDBClient } from '@eventstore/db-client';
import { appendEvents } from '../src/core/eventstore';
import { encodeEvent } from '../src/core/events';
import { silent } from '../test/support/logger';
import { emptyState, ingest, tick, type EngineState, type ItemChange, type JobContext } from '../src/engine';
import { ENGINE_STREAM, itemEvents } from '../src/engine/events';
import { restoreState } from '../src/engine/restore';
import { captureState, chunkCount, encodeSections } from '../src/engine/snapshot';
import { writeSnapshot } from '../src/engine/snapshot-store';
import { progress } from './support/stats';
import { positiveEnv } from './support/env';

const num = positiveEnv;
const ITEMS = num('BENCH_ENGINE_ITEMS', 1_000_000);
const TAIL = num('BENCH_ENGINE_TAIL', 100_000);
const PER_REPORT = 1000;
const T0 = Date.parse('2026-01-01T00:00:00Z');
const EXPIRY_MS = 4 * 3600_000;

const ctx: JobContext = {
  jobId: 'bench-job',
  facility: 'F',
  recipe: { type: 'INVENTORY', tagHeartbeatMs: 3600_000, tagExpiryMs: EXPIRY_MS, computeWindowMs: 500, reportingIntervalMs: 1000, minimumMovementInMeters: 0 },
  flags: { reportToDatabaseEnabled: true, reportToHistoryEnabled: true, reportToMessageQueueEnabled: true },
  useOtherJobData: true,
  readers: new Map(
    Array.from({ length: 10 }, (_, i) => [`r${i}`, { placement: { x: i, y: 0, z: 0, yaw: 0, pitch: 0, roll: 0, floor: '1' }, readerZone: null, antennaZones: { '1': `Z${i}A`, '2': `Z${i}B` }, floor: '1' }]),
  ),
  locator: undefined,
};

const epcOf = (n: number): string => `E280${n.toString(16).toUpperCase().padStart(20, '0')}`;
const ms = (from: bigint): number => Number((process.hrtime.bigint() - from) / 1000n) / 1000;
const now = (): bigint => process.hrtime.bigint();

function reportOf(reader: string, antennaId: number, first: number, count: number, t: number) {
  const at = new Date(t).toISOString();
  return {
    reader,
    jobId: ctx.jobId,
    facility: ctx.facility,
    from: at,
    to: at,
    observations: Array.from({ length: count }, (_, k) => ({ epc: epcOf(first + k), tid: null, antennaId, peakRssi: -50, readCount: 1, firstSeen: at, lastSeen: at, x: null, y: null })),
  };
}

async function startStore(dataDir: string): Promise<{ client: EventStoreDBClient; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', join(__dirname, 'support', 'server.ts')], { env: { ...process.env, BENCH_DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const msg = JSON.parse(line) as { ready?: boolean; port?: number };
      if (msg.ready === true && msg.port !== undefined) resolve(msg.port);
    });
    child.once('exit', (code) => reject(new Error(`event store exited with ${String(code)}`)));
  });
  const client = EventStoreDBClient.connectionString(`esdb://127.0.0.1:${port}?tls=false`);
  return {
    client,
    stop: async () => {
      await client.dispose();
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tagtrail-bench-engine-'));
  const store = await startStore(join(dir, 'eventstore'));
  const snapshotDir = join(dir, 'engine-snapshots');
  try {
    let revision = 'no_stream' as bigint | 'no_stream';
    let input = 0;
    let lastEvent = { id: '', inputPosition: '' };
    const append = async (changes: ItemChange[]): Promise<void> => {
      for (let i = 0; i < changes.length; i += 1000) {
        input += 1;
        const event = encodeEvent(itemEvents, { type: 'ItemsChanged', data: { inputPosition: String(input), at: 0, changes: changes.slice(i, i + 1000) } });
        revision = (await appendEvents(store.client, ENGINE_STREAM, [event], revision)).nextExpectedRevision;
        lastEvent = { id: event.id, inputPosition: String(input) };
      }
    };

    // 1. Build the state and the stream.
    progress(`building ${ITEMS} items (reports of ${PER_REPORT} tags, one per second) and appending their changes`);
    const state: EngineState = emptyState();
    let t = T0;
    const built = now();
    let changes = 0;
    for (let first = 0; first < ITEMS; first += PER_REPORT) {
      t += 1000;
      const r = (first / PER_REPORT) % 10;
      const out = ingest(state, reportOf(`r${r}`, 1, first, Math.min(PER_REPORT, ITEMS - first), t), ctx, t).changes;
      changes += out.length;
      await append(out);
      if (first % 100_000 === 0 && first > 0) progress(`${first} items`);
    }
    const buildMs = ms(built);
    progress(`built: ${state.shared.size} items, ${changes} changes, revision ${String(revision)} in ${buildMs.toFixed(0)} ms`);

    // 2. Snapshot.
    const delay = monitorEventLoopDelay({ resolution: 1 });
    const snapStart = now();
    const captured = captureState(state);
    const captureMs = ms(snapStart);
    const header = {
      position: { revision: String(revision), eventId: lastEvent.id, inputPosition: lastEvent.inputPosition },
      takenAt: Date.now(),
      isolated: [...captured.isolated],
      items: captured.views.reduce((n, v) => n + v.items.length, 0),
      chunks: chunkCount(captured),
      configuration: [],
    };
    delay.enable();
    // A timer beside the write, as the engine's cycle would be: how late does it run?
    let worstLateMs = 0;
    let expected = Date.now() + 50;
    const probe = setInterval(() => {
      worstLateMs = Math.max(worstLateMs, Date.now() - expected);
      expected = Date.now() + 50;
    }, 50);
    const written = await writeSnapshot(snapshotDir, header, encodeSections(captured));
    clearInterval(probe);
    delay.disable();
    const snapshotMs = ms(snapStart);
    const stallMs = delay.max / 1e6;
    progress(`snapshot: ${written.bytes} bytes in ${snapshotMs.toFixed(0)} ms (capture ${captureMs.toFixed(0)} ms), longest stall ${stallMs.toFixed(1)} ms`);

    // 3. Tail after the snapshot: every item of the first TAIL moves to its reader's other antenna zone.
    progress(`appending a tail of ${TAIL} changes after the snapshot`);
    for (let first = 0; first < TAIL; first += PER_REPORT) {
      t += 1000;
      const r = (first / PER_REPORT) % 10;
      await append(ingest(state, reportOf(`r${r}`, 2, first, Math.min(PER_REPORT, TAIL - first), t), ctx, t).changes);
    }
    if (revision === 'no_stream') throw new Error('nothing appended');
    const end = { revision, inputPosition: lastEvent.inputPosition };
    const deps = (snapshots: string | undefined) => ({
      client: store.client,
      logger: silent,
      snapshotDir: snapshots,
      contextOf: () => Promise.resolve(ctx),
      useOtherJobDataOf: () => Promise.resolve(true),
    });

    // 4. Restarts.
    progress('restart from the snapshot');
    let r0 = now();
    let restored = await restoreState(deps(snapshotDir), end);
    const fromSnapshot = { totalMs: ms(r0), loadMs: restored.loadMs, replayMs: restored.replayMs, replayedChanges: restored.replayedChanges, items: restored.state.shared.size };
    if (restored.snapshot === undefined) throw new Error('the snapshot was not used');
    restored = undefined as unknown as typeof restored;
    progress('restart without snapshot (whole stream)');
    r0 = now();
    restored = await restoreState(deps(undefined), end);
    const fromStart = { totalMs: ms(r0), replayedChanges: restored.replayedChanges, items: restored.state.shared.size };
    restored = undefined as unknown as typeof restored;

    // 5. Tick: nothing due, then 1000 due (the first report's items, read at T0 + 1 s, not re-read by the tail when TAIL < that).
    progress('tick: index vs scan');
    const tickAt = t + 1000;
    const time = (strategy: 'index' | 'scan', runs: number): number => {
      const s = now();
      for (let i = 0; i < runs; i++) tick(state, tickAt + i, strategy);
      return ms(s) / runs;
    };
    const tickIndexMs = time('index', 50);
    const tickScanMs = time('scan', 5);
    // The reports not re-read by the tail were one second apart: expiring the oldest one makes exactly its items due.
    let oldest = Infinity;
    for (const item of state.shared.values()) oldest = Math.min(oldest, item.lastSeen);
    let s = now();
    const dueIndex = tick(state, oldest + EXPIRY_MS, 'index').changes.length;
    const tickDueIndexMs = ms(s);
    s = now();
    const dueScan = tick(state, oldest + 1000 + EXPIRY_MS, 'scan').changes.length;
    const tickDueScanMs = ms(s);

    const figures = {
      machine: { cpus: cpus().length, model: cpus()[0]?.model, memGiB: Math.round(totalmem() / 2 ** 30), node: process.version, loadavg: loadavg().map((v) => +v.toFixed(2)) },
      items: ITEMS,
      changes,
      buildAndAppendMs: Math.round(buildMs),
      snapshot: { bytes: written.bytes, totalMs: Math.round(snapshotMs), captureMs: Math.round(captureMs), longestStallMs: +stallMs.toFixed(1), timerLateMs: worstLateMs },
      restartFromSnapshot: { ...fromSnapshot, totalMs: Math.round(fromSnapshot.totalMs) },
      restartWithoutSnapshot: { ...fromStart, totalMs: Math.round(fromStart.totalMs) },
      tick: { indexNothingDueMs: +tickIndexMs.toFixed(3), scanNothingDueMs: +tickScanMs.toFixed(1), dueIndexMs: +tickDueIndexMs.toFixed(1), dueScanMs: +tickDueScanMs.toFixed(1), dueByIndex: dueIndex, dueByScan: dueScan },
    };
    process.stdout.write(
      [
        `items: ${ITEMS} (${changes} changes; built and appended in ${(buildMs / 1000).toFixed(1)} s)`,
        `snapshot: ${(written.bytes / 2 ** 20).toFixed(1)} MiB in ${snapshotMs.toFixed(0)} ms (capture ${captureMs.toFixed(0)} ms); longest event-loop stall ${stallMs.toFixed(1)} ms, a 50 ms timer at most ${worstLateMs} ms late`,
        `restart from snapshot: ${fromSnapshot.totalMs.toFixed(0)} ms (load ${fromSnapshot.loadMs} ms + replay of ${fromSnapshot.replayedChanges} changes ${fromSnapshot.replayMs} ms)`,
        `restart without snapshot: ${fromStart.totalMs.toFixed(0)} ms (replay of ${fromStart.replayedChanges} changes)`,
        `tick, nothing due: index ${tickIndexMs.toFixed(3)} ms, scan ${tickScanMs.toFixed(1)} ms`,
        `tick, ${dueIndex} due: index ${tickDueIndexMs.toFixed(1)} ms; ${dueScan} due: scan ${tickDueScanMs.toFixed(1)} ms`,
        JSON.stringify(figures),
        '',
      ].join('\n'),
    );
  } finally {
    await store.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
