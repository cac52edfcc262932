// Online backup and restore of the embedded store: `npm run backup` copies a
// running store while appends go on (a consistent cut: a prefix of the log,
// every record as it is in the live store), and `npm run restore` puts it in
// another data directory, where it opens with exactly those records. Both
// are real child processes, as an operator runs them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { jsonEvent } from '@eventstore/db-client';
import { startTestEventStore, type TestEventStore } from '../support/eventstore';
import { childEnv, removeChildState, CHILD_START_MS } from '../support/tagtrailProcess';
import { runTsScript } from '../support/child';
import { EventLog } from '../../src/eventstore/storage/log';
import type { StoredRecord } from '../../src/eventstore/storage/records';

const store = (args: string[], dataDir: string) =>
  runTsScript('scripts/store.ts', args, CHILD_START_MS, { ...childEnv({ DATA_DIR: dataDir }), LOG_LEVEL: 'info' });

function records(storeDir: string): StoredRecord[] {
  const log = new EventLog(storeDir, { maxAppendSize: 1 << 20, readOnly: true });
  try {
    return log.readAll(0n, 'forwards', 1_000_000).map((r) => ({ ...r, proto: Buffer.from(r.proto) }));
  } finally {
    void log.close();
  }
}

describe('embedded event store backup and restore', function () {
  this.timeout(4 * CHILD_START_MS);
  let dataDir: string;
  let es: TestEventStore;
  const made: string[] = [];
  const tempDir = (name: string): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `tagtrail-${name}-`));
    made.push(dir);
    return dir;
  };

  before(async () => {
    dataDir = tempDir('backup-src');
    fs.writeFileSync(path.join(dataDir, 'reader-secret.key'), `${Buffer.alloc(32, 7).toString('base64')}\n`, { mode: 0o600 });
    es = await startTestEventStore({ dataDir: path.join(dataDir, 'eventstore') });
  });
  after(async () => {
    await es.close();
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
    await removeChildState();
  });

  it('backs up a running store while appends go on, and restores it record for record', async () => {
    const acked: number[] = [];
    let stop = false;
    const appending = (async () => {
      for (let i = 0; !stop; i++) {
        const events = Array.from({ length: 20 }, (_, j) => jsonEvent({ type: 'Counted', data: { n: i * 20 + j } }));
        await es.client.appendToStream(`count-${i % 4}`, events);
        acked.push(i);
      }
    })();
    while (acked.length < 20) await new Promise((r) => setTimeout(r, 20));
    const before = acked.length * 20;
    const backupDir = path.join(tempDir('backup'), 'copy');
    const backup = await store(['backup', backupDir], dataDir);
    stop = true;
    await appending;
    expect(backup.code, JSON.stringify(backup.lines) + backup.stderr).to.equal(0);
    expect(fs.existsSync(path.join(backupDir, 'reader-secret.key')), 'the key of sealed secrets goes with it').to.equal(true);

    const copied = records(path.join(backupDir, 'eventstore'));
    const live = records(path.join(dataDir, 'eventstore'));
    expect(copied.length, 'every event acknowledged before the backup began').to.be.at.least(before);
    expect(live.length, 'appends went on during the backup').to.be.greaterThan(copied.length);
    expect(copied, 'a prefix of the live log, byte for byte').to.deep.equal(live.slice(0, copied.length));

    const restoredDir = tempDir('restored');
    fs.writeFileSync(path.join(restoredDir, 'reader-secret.key'), `${Buffer.alloc(32, 9).toString('base64')}\n`);
    const restore = await store(['restore', backupDir], restoredDir);
    expect(restore.code, JSON.stringify(restore.lines) + restore.stderr).to.equal(0);
    expect(records(path.join(restoredDir, 'eventstore'))).to.deep.equal(copied);
    expect(fs.readFileSync(path.join(restoredDir, 'reader-secret.key'))).to.deep.equal(fs.readFileSync(path.join(dataDir, 'reader-secret.key')));
    const aside = fs.readdirSync(restoredDir).filter((n) => n.startsWith('eventstore.replaced-'));
    expect(aside, 'the key it replaced is kept aside').to.have.length(1);
    expect(fs.readdirSync(path.join(restoredDir, aside[0] ?? ''))).to.include('reader-secret.key');
  });

  it('refuses to restore into, or repair, a store a running process owns', async () => {
    const backupDir = path.join(tempDir('backup2'), 'copy');
    expect((await store(['backup', backupDir], dataDir)).code).to.equal(0);
    for (const args of [['restore', backupDir], ['repair', path.join(tempDir('repair'), 'out')]]) {
      const r = await store(args, dataDir);
      expect(r.code, args[0]).to.equal(1);
      expect(r.stderr, args[0]).to.match(new RegExp(`${path.join(dataDir, 'eventstore')} is in use by process ${process.pid}`));
    }
  });

  it('refuses a backup into a directory that is not empty', async () => {
    const busy = tempDir('busy');
    fs.writeFileSync(path.join(busy, 'x'), 'x');
    const r = await store(['backup', busy], dataDir);
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(/is not empty: give a new directory/);
  });
});
