// Durability across a hard kill: a child process appends to the embedded
// store and prints every acknowledged append; after SIGKILL the store is
// reopened on the same data directory and must hold every acknowledged event
// at its revision, and carry on with revisions and $all positions.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { expect } from 'chai';
import { BACKWARDS, END, START, type Position } from '@eventstore/db-client';
import { isRealServer, startTestEventStore, type TestEventStore } from '../support/eventstore';
import type { AckLine } from '../support/crash-appender';
import { collect, comparePositions, testEvents } from '../support/helpers';
import { sleep, withTimeout } from '../support/wait';

const ROOT = path.resolve(__dirname, '..', '..');
const APPENDER = path.join(ROOT, 'test', 'support', 'crash-appender.ts');

interface ChildRun {
  acks: AckLine[];
  stderr: string;
}

async function runAndKill(dataDir: string, runMs: number): Promise<ChildRun> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', APPENDER, dataDir], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let readyResolve: (() => void) | undefined;
  let firstAckResolve: (() => void) | undefined;
  const ready = new Promise<void>((r) => (readyResolve = r));
  const firstAck = new Promise<void>((r) => (firstAckResolve = r));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    stdout += chunk;
    if (stdout.includes('"ready":true')) readyResolve?.();
    if (stdout.includes('"ids":')) firstAckResolve?.();
  });
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const early = exited.then(({ code }) => {
    throw new Error(`crash-appender exited early with code ${code}: ${stderr}`);
  });
  try {
    await withTimeout(Promise.race([ready, early]), 60_000, 'the crash-appender to start');
    await withTimeout(Promise.race([firstAck, early]), 30_000, 'the first acknowledged append');
    await sleep(runMs);
  } finally {
    child.kill('SIGKILL');
  }
  early.catch(() => undefined);
  const { signal } = await exited;
  expect(signal, `child exit (stderr: ${stderr})`).to.equal('SIGKILL');
  // Only complete lines are acknowledgements; a torn last line is dropped.
  const lines = stdout.split('\n').slice(0, -1);
  const acks = lines.map((l) => JSON.parse(l) as Partial<AckLine> & { ready?: boolean }).filter((l): l is AckLine => !l.ready);
  return { acks, stderr };
}

describe('event store contract: crash durability (embedded only)', function () {
  this.timeout(180_000);
  let dataDir: string;
  let store: TestEventStore | undefined;

  before(function () {
    if (isRealServer()) this.skip();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tagtrail-crash-'));
  });

  after(async () => {
    if (store) await store.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged append across SIGKILL and continues revisions and positions', async () => {
    const { acks } = await runAndKill(dataDir, 1_500);
    expect(acks.length, 'acknowledged appends before the kill').to.be.greaterThan(5);
    if (process.env['CRASH_DEBUG']) process.stderr.write(`crash: ${acks.length} acknowledged appends\n`);

    store = await startTestEventStore({ dataDir });
    const client = store.client;

    const streams = [...new Set(acks.map((a) => a.stream))];
    let maxAckPosition: Position | undefined;
    for (const a of acks) {
      if (a.commit === null || a.prepare === null) continue;
      const p = { commit: BigInt(a.commit), prepare: BigInt(a.prepare) };
      if (!maxAckPosition || comparePositions(p, maxAckPosition) > 0) maxAckPosition = p;
    }
    expect(maxAckPosition, 'acks carry positions').to.not.equal(undefined);

    const lastRevision = new Map<string, bigint>();
    for (const stream of streams) {
      const read = await collect(client.readStream(stream), 60_000);
      // Contiguous revisions from 0, no duplicates.
      read.forEach((e, i) => {
        if (e.event?.revision !== BigInt(i)) expect.fail(`${stream}: event ${i} has revision ${e.event?.revision}`);
      });
      const ids = read.map((e) => e.event!.id);
      expect(new Set(ids).size, `${stream}: distinct ids`).to.equal(ids.length);
      const revisionOf = new Map(read.map((e) => [e.event!.id, e.event!.revision]));
      for (const a of acks.filter((x) => x.stream === stream)) {
        const last = BigInt(a.revision);
        a.ids.forEach((id, k) => {
          const expected = last - BigInt(a.ids.length - 1 - k);
          expect(revisionOf.get(id), `${stream}: acknowledged event ${id}`).to.equal(expected);
        });
      }
      lastRevision.set(stream, BigInt(read.length - 1));
    }

    const [newest] = await collect(client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1 }));
    const newestBefore = newest!.event!.position;
    expect(comparePositions(newestBefore, maxAckPosition!)).to.be.at.least(0);

    const newPositions: Position[] = [];
    for (const stream of streams) {
      const last = lastRevision.get(stream)!;
      const result = await client.appendToStream(stream, testEvents(2), { expectedRevision: last });
      expect(result.nextExpectedRevision, `${stream}: revision continues`).to.equal(last + 2n);
      expect(result.position).to.not.equal(undefined);
      expect(comparePositions(result.position!, newestBefore), 'new position after every old one').to.equal(1);
      newPositions.push(result.position!);
      const tail = await collect(client.readStream(stream, { fromRevision: last + 1n }));
      expect(tail.map((e) => e.event?.revision)).to.deep.equal([last + 1n, last + 2n]);
    }
    for (let i = 1; i < newPositions.length; i++) expect(comparePositions(newPositions[i - 1]!, newPositions[i]!)).to.equal(-1);

    // The whole $all log is still strictly ordered across the restart.
    const all = await collect(client.readAll({ fromPosition: START }), 60_000);
    for (let i = 1; i < all.length; i++) {
      if (comparePositions(all[i - 1]!.event!.position, all[i]!.event!.position) !== -1) {
        expect.fail(`$all positions not increasing at index ${i}`);
      }
    }
    const lastAll = all[all.length - 1]!.event!.position;
    expect(lastAll).to.deep.equal(newPositions[newPositions.length - 1]);
  });
});
