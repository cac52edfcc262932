// A damaged store is refused in plain words, never opened as something else
// and never a signal crash: each kind of damage is made on a real store's
// files, and the store's entry point (a real child process) must exit 1 with
// a message saying what is wrong, where, and what to do. Damage in the middle
// of the log (which the open does not read) is refused by reads, found by
// verify-store, and repaired by repair-store, which keeps every other record.
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { EventStoreDBClient, FORWARDS, START } from '@eventstore/db-client';
import { EventLog } from '../../src/eventstore/storage/log';
import { StoreDamaged } from '../../src/eventstore/storage/damage';
import { childEnv, removeChildState, runEntryPoint, CHILD_START_MS, type RunningProcess } from '../support/tagtrailProcess';
import { runTsScript } from '../support/child';

const EVENTS = 3000;
const PAYLOAD = (i: number): string => JSON.stringify({ marker: `payload-${String(i).padStart(6, '0')}`, pad: 'p'.repeat(300) });

/** A data directory whose store holds EVENTS events in 3 streams, closed cleanly. */
async function makeStore(): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tagtrail-integrity-'));
  const log = new EventLog(path.join(dataDir, 'eventstore'), { maxAppendSize: 1 << 20 });
  for (let i = 0; i < EVENTS; i += 100) {
    const events = Array.from({ length: 100 }, (_, j) => ({
      id: crypto.randomUUID(),
      type: 'Filled',
      contentType: 'application/json',
      data: Buffer.from(PAYLOAD(i + j)),
      metadata: new Uint8Array(),
    }));
    await log.append(`fill-${(i / 100) % 3}`, { kind: 'any' }, events);
  }
  await log.close();
  return dataDir;
}

const dataFile = (dataDir: string): string => path.join(dataDir, 'eventstore', 'data.mdb');

/** Overwrites bytes of the data file in place. */
function overwrite(dataDir: string, offset: number, bytes: Buffer): void {
  const fd = fs.openSync(dataFile(dataDir), 'r+');
  fs.writeSync(fd, bytes, 0, bytes.length, offset);
  fs.closeSync(fd);
}

/**
 * Changes a byte inside the stored payload of event `i`, found by its unique
 * text: at every place it is, as LMDB's copy-on-write leaves older copies of
 * a page in free pages and only one is live.
 */
function damageEvent(dataDir: string, i: number): void {
  const bytes = fs.readFileSync(dataFile(dataDir));
  const text = `payload-${String(i).padStart(6, '0')}`;
  let found = 0;
  for (let at = bytes.indexOf(text); at >= 0; at = bytes.indexOf(text, at + 1)) {
    overwrite(dataDir, at + 3, Buffer.from('#'));
    found++;
  }
  expect(found, `payload ${i} found in the data file`).to.be.greaterThan(0);
}

/** Starts the store's own entry point on `dataDir` and waits for it to exit; returns its code and every output line. */
async function startRefused(dataDir: string): Promise<{ code: number | NodeJS.Signals; output: string }> {
  const proc = runEntryPoint('src/eventstore/main.ts', childEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'info' }));
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), CHILD_START_MS);
  const code = await proc.exited;
  clearTimeout(timer);
  return { code, output: [...proc.stdoutLines, ...proc.stderrLines].join('\n') };
}

describe('embedded event store integrity', function () {
  this.timeout(4 * CHILD_START_MS);
  const made: string[] = [];
  const store = async (): Promise<string> => {
    const dir = await makeStore();
    made.push(dir);
    return dir;
  };
  after(async () => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
    await removeChildState();
  });

  describe('refused at start, exit 1, with what, where and what to do', () => {
    const cases: Array<{ name: string; damage: (dataDir: string) => void; says: RegExp }> = [
      { name: 'data file truncated to 0 bytes', damage: (d) => fs.truncateSync(dataFile(d), 0), says: /data\.mdb holds 0 bytes, but it held \d+: it was cut short/ },
      { name: 'data file cut to half', damage: (d) => fs.truncateSync(dataFile(d), Math.floor(fs.statSync(dataFile(d)).size / 2)), says: /it was cut short/ },
      {
        name: 'data file cut to half, in a store from before the marker file',
        damage: (d) => {
          fs.rmSync(path.join(d, 'eventstore', 'store.json'));
          fs.truncateSync(dataFile(d), Math.floor(fs.statSync(dataFile(d)).size / 2));
        },
        says: /tree root at page \d+, past the end: it was cut short/,
      },
      { name: 'data file missing', damage: (d) => fs.rmSync(dataFile(d)), says: /data\.mdb is missing, but .* held the store/ },
      { name: 'both meta pages zeroed', damage: (d) => overwrite(d, 0, Buffer.alloc(8192)), says: /meta page 0 of data\.mdb is damaged/ },
      { name: 'second meta page zeroed', damage: (d) => overwrite(d, 4096, Buffer.alloc(4096)), says: /meta page 1 of data\.mdb is damaged/ },
      { name: 'the last record changed', damage: (d) => damageEvent(d, EVENTS - 1), says: /damaged at position \d+: checksum mismatch/ },
      { name: 'the first record changed', damage: (d) => damageEvent(d, 0), says: /damaged at position 1: checksum mismatch/ },
      {
        name: '64 KiB of random bytes in the middle of the data file (pages of the trees themselves)',
        damage: (d) => overwrite(d, Math.floor(fs.statSync(dataFile(d)).size / 8192) * 4096, randomBytes(65536)),
        says: /LMDB's structure in data\.mdb is damaged|walking its trees (found|failed)/,
      },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const dataDir = await store();
        c.damage(dataDir);
        const { code, output } = await startRefused(dataDir);
        expect(code, output).to.equal(1);
        expect(output).to.match(c.says);
        expect(output).to.include(path.join(dataDir, 'eventstore'));
        expect(output).to.include('npm run restore');
        expect(output, 'never opened as a fresh store').not.to.include('embedded event store listening');
      });
    }
  });

  it('verify-store reports LMDB structure damage, exit 1, instead of dying of it', async () => {
    const dataDir = await store();
    overwrite(dataDir, Math.floor(fs.statSync(dataFile(dataDir)).size / 8192) * 4096, randomBytes(65536));
    const r = await runStoreCommand(['verify'], { DATA_DIR: dataDir });
    expect(r.signal, r.stderr).to.equal(null);
    expect(r.code, r.stderr).to.equal(1);
    expect(r.stderr).to.match(/is damaged: (LMDB's structure|walking its trees)/);
  });

  it('refuses in-process opens the same way (StoreDamaged), and an intact store opens with every event', async () => {
    const dataDir = await store();
    const log = new EventLog(path.join(dataDir, 'eventstore'), { maxAppendSize: 1 << 20 });
    expect(log.recordCount()).to.equal(EVENTS);
    await log.close();
    fs.truncateSync(dataFile(dataDir), 8192);
    expect(() => new EventLog(path.join(dataDir, 'eventstore'), { maxAppendSize: 1 << 20 })).to.throw(StoreDamaged, /cut short/);
  });

  describe('damage in the middle of the log', () => {
    let dataDir: string;
    before(async () => {
      dataDir = await store();
      damageEvent(dataDir, 1500);
    });

    it('is refused by a read that meets it (DATA_LOSS, with the position) and logged by the store', async () => {
      const proc: RunningProcess = runEntryPoint('src/eventstore/main.ts', childEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'info' }));
      try {
        const started = await proc.waitForLog((l) => l.msg === 'started', CHILD_START_MS);
        const client = EventStoreDBClient.connectionString(String(started['connectionString']));
        try {
          let read = 0;
          let failure: unknown;
          try {
            for await (const e of client.readAll({ fromPosition: START, direction: FORWARDS, maxCount: EVENTS * 2 })) if (e.event?.streamId.startsWith('fill-')) read++;
          } catch (err) {
            failure = err;
          }
          expect(read, 'events before the damaged one are read').to.equal(1500);
          expect(String(failure)).to.match(/damaged at position 1501: checksum mismatch/);
          const logged = await proc.waitForLog((l) => l.msg === 'event log record damaged', 10_000);
          expect(logged).to.include({ position: '1501', reason: 'checksum mismatch' });
        } finally {
          await client.dispose();
        }
      } finally {
        proc.child.kill('SIGTERM');
        await proc.exited;
      }
    });

    it('stops the whole service from starting (npm start: exit 1, what, where and what to do), as its read models could never catch up', async () => {
      const proc = runEntryPoint('src/main.ts', childEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'info' }));
      const timer = setTimeout(() => proc.child.kill('SIGKILL'), CHILD_START_MS);
      const code = await proc.exited;
      clearTimeout(timer);
      const output = [...proc.stdoutLines, ...proc.stderrLines].join('\n');
      expect(code, output).to.equal(1);
      expect(output).to.match(/the event store in \S+ is damaged: the event log is damaged at position 1501: checksum mismatch/);
      expect(output).to.include('npm run restore');
      expect(output).not.to.include('http listening');
    });

    it('is found by verify-store (exit 1, position named) and repair-store keeps every other record', async () => {
      const env = { DATA_DIR: dataDir };
      const verified = await runStoreCommand(['verify'], env);
      expect(verified.code, verified.stderr).to.equal(1);
      expect(verified.stderr).to.match(/reading its records.* found: position 1501: checksum mismatch/);
      const repaired = path.join(dataDir, 'repaired');
      const repair = await runStoreCommand(['repair', repaired], env);
      expect(repair.code, JSON.stringify(repair.lines) + repair.stderr).to.equal(0);
      // The services started on this store above appended a few records of their own (the relay's and the capture's positions) after the test's.
      const counted = /(\d+) of (\d+) records copied, 1 damaged records left out: position 1501/.exec(JSON.stringify(repair.lines));
      expect(counted, JSON.stringify(repair.lines)).to.not.equal(null);
      expect(Number(counted?.[2])).to.be.at.least(EVENTS);
      expect(Number(counted?.[1])).to.equal(Number(counted?.[2]) - 1);
      const again = await runStoreCommand(['verify', path.join(repaired, 'eventstore')], env);
      expect(again.code, JSON.stringify(again.lines)).to.equal(0);
      const log = new EventLog(path.join(repaired, 'eventstore'), { maxAppendSize: 1 << 20 });
      try {
        const all = log.readAll(0n, 'forwards', EVENTS).filter((r) => Number(r.position) <= EVENTS);
        expect(all.map((r) => Number(r.position))).to.deep.equal([...Array(EVENTS).keys()].map((i) => i + 1).filter((p) => p !== 1501));
        // The stream that lost a record keeps its other revisions and its last one.
        const lost = log.state('fill-0');
        expect(lost.last).to.equal(999);
        const next = await log.append('fill-0', { kind: 'exact', revision: 999n }, [
          { id: crypto.randomUUID(), type: 'Filled', contentType: 'application/json', data: Buffer.from('{}'), metadata: new Uint8Array() },
        ]);
        expect(next.revision).to.equal(1000n);
        expect(Number(next.position)).to.equal(Number(counted?.[2]) + 1);
      } finally {
        await log.close();
      }
    });
  });
});

function runStoreCommand(args: string[], env: Record<string, string>): ReturnType<typeof runTsScript> {
  return runTsScript('scripts/store.ts', args, CHILD_START_MS, { ...childEnv(env), LOG_LEVEL: 'info' });
}
