// The embedded event store on a disk that fills up: `npm run eventstore` as
// a child process with its DATA_DIR on a small tmpfs of the test's own,
// reached through @eventstore/db-client like any client. Embedded only (a
// real server's disk is not ours to fill).
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { EventStoreDBClient, UnknownError, jsonEvent, type EventData } from '@eventstore/db-client';
import { isEventStoreFull } from '../../src/core/eventstore';
import { childEnv, CHILD_START_MS, parseLogLines, removeChildState, runEntryPoint, type RunningProcess } from '../support/tagtrailProcess';
import { uniqueStream } from '../support/eventstore';
import { collect, expectRejection } from '../support/helpers';
import { mountTmpfs, type Tmpfs } from '../support/tmpfs';

const credentials = { username: 'admin', password: 'changeit' };
/** Large enough that every append needs pages LMDB has not got yet. */
const padding = 'x'.repeat(64 * 1024);
const event = (n: number): EventData => jsonEvent({ type: 'Filled', data: { n, padding } });
const FULL = 'the event store disk is full: appends are refused until space is freed, reads go on';

describe('embedded event store: a full disk (npm run eventstore on a small tmpfs)', function () {
  this.timeout(300_000);
  let disk: Tmpfs | undefined;
  let store: RunningProcess | undefined;
  let client: EventStoreDBClient | undefined;

  before(async function () {
    const mounted = mountTmpfs(24);
    if ('unavailable' in mounted) {
      console.log(`    (skipped: ${mounted.unavailable})`);
      this.skip();
    }
    disk = mounted;
    store = runEntryPoint('src/eventstore/main.ts', childEnv({ EVENTSTORE_PORT: '0', DATA_DIR: path.join(disk.dir, 'data'), DATA_DIR_MIN_FREE_MB: '4', LOG_LEVEL: 'info' }));
    const started = await store.waitForLog((l) => l.msg === 'started', CHILD_START_MS);
    client = EventStoreDBClient.connectionString(String(started['connectionString']));
  });

  after(async () => {
    await client?.dispose();
    if (store && store.child.exitCode === null && store.child.signalCode === null) {
      store.child.kill('SIGKILL');
      await store.exited;
    }
    disk?.unmount();
    await removeChildState();
  });

  it('refuses appends with RESOURCE_EXHAUSTED while full, keeps reading, writes again once space is freed and stops cleanly', async () => {
    const c = client!;
    const s = store!;
    const stream = uniqueStream('disk-full');
    const acknowledged: EventData[] = [];
    for (let n = 0; n < 3; n++) {
      const e = event(n);
      await c.appendToStream(stream, e);
      acknowledged.push(e);
    }
    disk!.fill('filler');
    // LMDB first reuses pages it freed itself: appends may still be taken for a while on a full disk.
    let refused: unknown;
    for (let n = 3; n < 1000 && refused === undefined; n++) {
      const e = event(n);
      try {
        await c.appendToStream(stream, e);
        acknowledged.push(e);
      } catch (err) {
        refused = err;
      }
    }
    // BatchAppend (the client's default) ends its call with the status; the client keeps its code.
    expect(isEventStoreFull(refused), String(refused)).to.equal(true);
    expect((refused as Error).message).to.contain('No space left');
    // The unary Append (calls with credentials) answers the same.
    const viaAppend = await expectRejection(c.appendToStream(stream, event(1000), { credentials }), UnknownError);
    expect(isEventStoreFull(viaAppend)).to.equal(true);
    await s.waitForLog((l) => l.msg === FULL, CHILD_START_MS);

    // Still running, still reading: every acknowledged append, nothing else.
    expect(s.child.exitCode).to.equal(null);
    const ids = async (): Promise<string[]> => (await collect(c.readStream(stream))).map((r) => r.event!.id);
    expect(await ids()).to.deep.equal(acknowledged.map((e) => e.id));

    rmSync(path.join(disk!.dir, 'filler'));
    const healed = event(2000);
    await c.appendToStream(stream, healed);
    acknowledged.push(healed);
    expect(await ids()).to.deep.equal(acknowledged.map((e) => e.id));
    await s.waitForLog((l) => l.msg === 'the event store writes again: its disk has space', CHILD_START_MS);

    // Closing the log does not wait for the flush of a commit that failed.
    s.child.kill('SIGTERM');
    expect(await s.exited, [...s.stdoutLines, ...s.stderrLines].join('\n')).to.equal(0);
    // The one error is the full disk (no unhandled rejection, no crash); lmdb also prints plain-text lines of its own there.
    const errors = parseLogLines(s.stderrLines.filter((l) => l.startsWith('{'))).map((l) => l.msg);
    expect(errors).to.deep.equal([FULL]);
  });
});
