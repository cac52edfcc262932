// An append refused for its expected revision because of a write still in
// flight is answered once that write is on disk: a client that re-reads the
// stream on the conflict (every command does, src/core/command.ts) then sees
// the write it lost to, instead of deciding on the same state and losing
// again (two api processes creating the first admin at once did).
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventLog, type ProposedEvent } from '../../../src/eventstore/storage/log';
import { WrongExpectedVersion } from '../../../src/eventstore/storage/errors';

const event = (type: string): ProposedEvent => ({ id: randomUUID(), type, contentType: 'application/json', data: Buffer.from('{}'), metadata: new Uint8Array() });

describe('event log: a conflict with a write in flight', () => {
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

  it('is answered once the winning write is readable, so a re-read sees it', async () => {
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
});
