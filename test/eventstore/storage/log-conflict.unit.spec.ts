// Appends meeting a write still in flight:
// - refused for their expected revision, they are answered once that write is
//   on disk: a client that re-reads the stream on the conflict (every command
//   does, src/core/command.ts) then sees the write it lost to, instead of
//   deciding on the same state and losing again (two api processes creating
//   the first admin at once did);
// - the same events again (a client that gave up waiting for the answer and
//   retried at once) are answered as that first append, and written once: the
//   retry cannot find them on disk yet, so it waits for the first to settle.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventLog, type ProposedEvent } from '../../../src/eventstore/storage/log';
import { WrongExpectedVersion } from '../../../src/eventstore/storage/errors';

const event = (type: string, id = randomUUID()): ProposedEvent => ({ id, type, contentType: 'application/json', data: Buffer.from('{}'), metadata: new Uint8Array() });

describe('event log: appends meeting a write in flight', () => {
  let dir: string;
  let log: EventLog;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tagtrail-log-conflict-'));
    log = new EventLog(dir, { maxAppendSize: 1 << 20 });
  });

  afterEach(async () => {
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a conflict is answered once the winning write is readable, so a re-read sees it', async () => {
    const winner = log.append('user-admin', { kind: 'no_stream' }, [event('UserCreated')]);
    let seenOnConflict: string[] | undefined;
    const loser = log.append('user-admin', { kind: 'no_stream' }, [event('UserCreated')]).then(
      () => 'appended',
      (err: unknown) => {
        seenOnConflict = log.readStream('user-admin', 0, 'forwards', 10).map((r) => r.revision.toString());
        return err;
      },
    );
    const [won, lost] = await Promise.all([winner, loser]);
    expect(won.revision).to.equal(0n);
    expect(lost).to.be.instanceOf(WrongExpectedVersion);
    expect(seenOnConflict, 'the stream as read on the conflict').to.have.length(1);
  });

  it('a conflict with nothing in flight is answered as before', async () => {
    await log.append('s-1', { kind: 'no_stream' }, [event('A')]);
    const err = await log.append('s-1', { kind: 'no_stream' }, [event('B')]).then(() => undefined, (e: unknown) => e);
    expect(err).to.be.instanceOf(WrongExpectedVersion);
    expect(log.readStream('s-1', 0, 'forwards', 10)).to.have.length(1);
  });

  it('a retry with expected revision any: answered with the first attempt\'s revision and position, written once', async () => {
    await log.append('tagReports-r1', { kind: 'any' }, [event('TagsReported')]);
    const id = randomUUID();
    const [first, retry] = await Promise.all([log.append('tagReports-r1', { kind: 'any' }, [event('TagsReported', id)]), log.append('tagReports-r1', { kind: 'any' }, [event('TagsReported', id)])]);
    expect(retry).to.deep.equal(first);
    expect(log.readStream('tagReports-r1', 0, 'forwards', 10).map((r) => r.id)).to.have.length(2).and.to.include(id);
  });

  it('a retry with an exact expected revision: the same', async () => {
    const ids = [randomUUID(), randomUUID()];
    const [first, retry] = await Promise.all([
      log.append('s-2', { kind: 'no_stream' }, ids.map((id) => event('A', id))),
      log.append('s-2', { kind: 'no_stream' }, ids.map((id) => event('A', id))),
    ]);
    expect(first.revision).to.equal(1n);
    expect(retry).to.deep.equal(first);
    expect(log.readStream('s-2', 0, 'forwards', 10).map((r) => r.id)).to.deep.equal(ids);
  });

  it('other events appended meanwhile are written as before, in order', async () => {
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    const results = await Promise.all(ids.map((id) => log.append('s-3', { kind: 'any' }, [event('A', id)])));
    expect(results.map((r) => r.revision)).to.deep.equal([0n, 1n, 2n]);
    expect(log.readStream('s-3', 0, 'forwards', 10).map((r) => r.id)).to.deep.equal(ids);
  });
});
