// One process at a time owns a store. Two processes started together on one
// DATA_DIR (each entry point that opens the store) must end with exactly one
// running and the other refused, exit 1, naming the directory and the
// owner's pid; a crashed owner (kill -9) leaves the store free for the next.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { childEnv, removeChildState, runEntryPoint, CHILD_START_MS, type RunningProcess } from '../support/tagtrailProcess';
import { DirectoryLocked, lockDirectory } from '../../src/core/dir-lock';

interface Outcome {
  readonly proc: RunningProcess;
  readonly result: 'started' | number | NodeJS.Signals;
}

/** Waits until `proc` logs `startedMsg` or exits. */
async function outcome(proc: RunningProcess, startedMsg: string): Promise<Outcome> {
  const started = proc.waitForLog((l) => l.msg === startedMsg, CHILD_START_MS).then(() => 'started' as const);
  const result = await Promise.race([started, proc.exited]);
  started.catch(() => undefined);
  return { proc, result };
}

async function stop(proc: RunningProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill(signal);
  await proc.exited;
}

describe('one owner per store', function () {
  this.timeout(4 * CHILD_START_MS);
  const dirs: string[] = [];
  const running: RunningProcess[] = [];
  const dataDir = (): string => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'tagtrail-owner-'));
    dirs.push(d);
    return d;
  };
  afterEach(async () => {
    for (const p of running.splice(0)) await stop(p, 'SIGKILL');
  });
  after(async () => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    await removeChildState();
  });

  const entries = [
    { entry: 'src/eventstore/main.ts', startedMsg: 'started' },
    { entry: 'src/main.ts', startedMsg: 'embedded event store started' },
  ];
  for (const { entry, startedMsg } of entries) {
    it(`${entry}: of two started together on one DATA_DIR, one runs and the other exits 1 naming the directory and the owner`, async () => {
      const dir = dataDir();
      const procs = [0, 1].map(() => runEntryPoint(entry, childEnv({ DATA_DIR: dir, LOG_LEVEL: 'info' })));
      running.push(...procs);
      const outcomes = await Promise.all(procs.map((p) => outcome(p, startedMsg)));
      const winners = outcomes.filter((o) => o.result === 'started');
      const losers = outcomes.filter((o) => o.result !== 'started');
      expect(winners, JSON.stringify(outcomes.map((o) => o.result))).to.have.length(1);
      const loser = losers[0];
      const winner = winners[0];
      if (!loser || !winner) return;
      expect(loser.result).to.equal(1);
      const said = [...loser.proc.stdoutLines, ...loser.proc.stderrLines].join('\n');
      expect(said).to.include(`${path.join(dir, 'eventstore')} is in use by process ${winner.proc.child.pid}`);
      expect(said).not.to.include('listening');
    });
  }

  it('a store whose owner was killed (kill -9) opens at once in the next process', async () => {
    const dir = dataDir();
    const first = runEntryPoint('src/eventstore/main.ts', childEnv({ DATA_DIR: dir, LOG_LEVEL: 'info' }));
    running.push(first);
    expect((await outcome(first, 'started')).result).to.equal('started');
    await stop(first, 'SIGKILL');
    const next = runEntryPoint('src/eventstore/main.ts', childEnv({ DATA_DIR: dir, LOG_LEVEL: 'info' }));
    running.push(next);
    expect((await outcome(next, 'started')).result).to.equal('started');
  });

  it('in one process too: a second lock of a held directory is refused until the first is released', async () => {
    const dir = dataDir();
    const lock = await lockDirectory(dir, 'first');
    let refused: unknown;
    try {
      await lockDirectory(dir, 'second');
    } catch (err) {
      refused = err;
    }
    expect(refused).to.be.instanceOf(DirectoryLocked);
    expect((refused as DirectoryLocked).holder).to.include({ pid: process.pid, what: 'first' });
    await lock.release();
    const again = await lockDirectory(dir, 'second');
    await again.release();
  });
});
