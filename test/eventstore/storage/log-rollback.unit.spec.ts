// A write that fails to commit must leave the event log's in-memory view
// equal to its disk: no revision or position counted that the disk lacks, no
// half-written record visible in $all, and appends decided on top of the
// failed one failing too rather than leaving a hole in the stream. The
// failure is answered with its cause, a full disk as StorageFull.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants as osConstants } from 'node:os';
import type { RootDatabase } from 'lmdb';
import { EventLog, type ProposedEvent } from '../../../src/eventstore/storage/log';
import { StorageFull } from '../../../src/eventstore/storage/errors';
import { isCommitFailureEcho } from '../../../src/eventstore/storage/commit';

const event = (type: string): ProposedEvent => ({
  id: randomUUID(),
  type,
  contentType: 'application/json',
  data: Buffer.from('{}'),
  metadata: new Uint8Array(),
});

/** Makes the next `count` commits of the log's LMDB environment fail, as a full or broken disk would. */
function failNextCommits(log: EventLog, count: number, failure: () => unknown = () => new Error('injected commit failure')): void {
  const root = (log as unknown as { root: RootDatabase }).root;
  const original = root.transaction.bind(root);
  let left = count;
  root.transaction = (<T>(callback: () => T): Promise<T> => {
    if (left <= 0) return original(callback);
    left--;
    return Promise.reject(failure());
  }) as RootDatabase['transaction'];
}

/**
 * A commit failure as lmdb-js reports it: a rejection that says only "Commit
 * failed", and the cause (what the write thread got) in a second promise.
 */
function lmdbCommitFailure(cause: Error & { code?: unknown }): () => Error {
  return () => {
    const commitError = Promise.reject(cause);
    commitError.catch(() => undefined); // lmdb leaves it to the caller; here the log must read it
    return Object.assign(new Error('Commit failed (see commitError for details)'), { commitError });
  };
}

const noSpace = (): Error => Object.assign(new Error('No space left on device: Attempting to write page at position 98304'), { code: osConstants.errno.ENOSPC });

const rejection = async (p: Promise<unknown>): Promise<Error> => {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
};

describe('event log: a failed commit rolls back', () => {
  let dir: string;
  let log: EventLog;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tagtrail-log-rollback-'));
    log = new EventLog(dir, { maxAppendSize: 1 << 20 });
  });

  afterEach(async () => {
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an injected commit failure leaves the stream state and the next position as on disk', async () => {
    await log.append('s-1', { kind: 'no_stream' }, [event('A')]);
    failNextCommits(log, 1);
    const err = await rejection(log.append('s-1', { kind: 'exact', revision: 0n }, [event('B'), event('C')]));
    expect(err.message).to.equal('injected commit failure');
    expect(log.state('s-1').last).to.equal(0);

    // The same expectation as the failed append holds again, and the events
    // get the revisions and positions the failed ones would have had.
    const ok = await log.append('s-1', { kind: 'exact', revision: 0n }, [event('B2')]);
    expect(ok.revision).to.equal(1n);
    expect(ok.position).to.equal(2n);
    expect(log.readStream('s-1', 0, 'forwards', 10).map((r) => r.revision)).to.deep.equal([0n, 1n]);

    await log.close();
    log = new EventLog(dir, { maxAppendSize: 1 << 20 });
    expect(log.state('s-1').last).to.equal(1);
    expect(log.readAll(0n, 'forwards', 10).map((r) => r.position)).to.deep.equal([1n, 2n]);
  });

  it('a new stream whose commit failed does not exist afterwards', async () => {
    failNextCommits(log, 1);
    await rejection(log.append('s-new', { kind: 'no_stream' }, [event('A')]));
    expect(log.state('s-new').last).to.equal(-1);
    const ok = await log.append('s-new', { kind: 'no_stream' }, [event('A')]);
    expect(ok.revision).to.equal(0n);
  });

  it('appends decided on top of a failed write fail too, then the log continues from its disk state', async () => {
    await log.append('s-2', { kind: 'no_stream' }, [event('A')]);
    failNextCommits(log, 1);
    // Both are decided before either commits: the second on the revision
    // the first would have written.
    const first = log.append('s-2', { kind: 'any' }, [event('B')]);
    const second = log.append('s-2', { kind: 'any' }, [event('C')]);
    const other = log.append('s-other', { kind: 'no_stream' }, [event('X')]);
    expect((await rejection(first)).message).to.equal('injected commit failure');
    expect((await rejection(second)).message).to.match(/decided on a write that failed to commit/);
    await other; // an unrelated stream commits normally
    expect(log.state('s-2').last).to.equal(0);
    expect(log.readStream('s-2', 0, 'forwards', 10).map((r) => r.revision)).to.deep.equal([0n]);

    const ok = await log.append('s-2', { kind: 'exact', revision: 0n }, [event('D')]);
    expect(ok.revision).to.equal(1n);
    expect(log.readStream('s-2', 0, 'forwards', 10).map((r) => r.revision)).to.deep.equal([0n, 1n]);
  });

  it('a commit that fails for want of disk space is answered StorageFull with lmdb\'s cause, and the next append is written', async () => {
    await log.append('s-4', { kind: 'no_stream' }, [event('A')]);
    failNextCommits(log, 1, lmdbCommitFailure(noSpace()));
    const err = await rejection(log.append('s-4', { kind: 'exact', revision: 0n }, [event('B')]));
    expect(err).to.be.instanceOf(StorageFull);
    expect(err.message).to.contain('No space left on device: Attempting to write page');
    expect(log.state('s-4').last).to.equal(0);
    // Space is back: the same expectation holds and is written.
    expect((await log.append('s-4', { kind: 'exact', revision: 0n }, [event('B')])).revision).to.equal(1n);
  });

  it('a commit that fails for another reason is answered with the cause lmdb gave, not as a full disk', async () => {
    failNextCommits(log, 1, lmdbCommitFailure(Object.assign(new Error('Input/output error'), { code: osConstants.errno.EIO })));
    const err = await rejection(log.append('s-5', { kind: 'no_stream' }, [event('A')]));
    expect(err).not.to.be.instanceOf(StorageFull);
    expect(err.message).to.equal('Input/output error');
  });

  it('lmdb\'s own rejection of a failed commit is recognised as its echo; other failures are not', () => {
    expect(isCommitFailureEcho(lmdbCommitFailure(noSpace())())).to.equal(true);
    expect(isCommitFailureEcho(new Error('Commit failed (see commitError for details)'))).to.equal(false);
    expect(isCommitFailureEcho(new StorageFull(noSpace()))).to.equal(false);
    expect(isCommitFailureEcho('Commit failed')).to.equal(false);
  });

  it('a put that fails inside the transaction (key over the size limit) leaves no record behind', async () => {
    const long = `s-${'x'.repeat(3000)}`;
    await rejection(log.append(long, { kind: 'no_stream' }, [event('A')]));
    expect(log.state(long).last).to.equal(-1);
    await log.append('s-3', { kind: 'no_stream' }, [event('B')]);
    // $all holds only the event that was acknowledged: the failed write's
    // record was not kept in the batch.
    const all = log.readAll(0n, 'forwards', 10);
    expect(all.map((r) => r.stream)).to.deep.equal(['s-3']);
  });
});
