// Stream metadata: the $$<stream> metastream written by setStreamMetadata and
// read back by getStreamMetadata, plus the effect of $maxCount and $tb on reads.
import { expect } from 'chai';
import { NO_STREAM, WrongExpectedVersionError, type StreamMetadata } from '@eventstore/db-client';
import { uniqueStream, withEventStore } from '../support/eventstore';
import { collect, expectRejection, testEvents } from '../support/helpers';

describe('event store contract: stream metadata', () => {
  const fx = withEventStore();

  it('round-trips every system field, the ACL and custom fields', async () => {
    const stream = uniqueStream('meta');
    await fx.client.appendToStream(stream, testEvents(1), { expectedRevision: NO_STREAM });
    const metadata: StreamMetadata = {
      maxCount: 1000,
      maxAge: 86_400,
      truncateBefore: 0,
      cacheControl: 30,
      acl: {
        readRoles: ['$all'],
        writeRoles: ['$all'],
        deleteRoles: ['$admins'],
        metaReadRoles: ['$all'],
        metaWriteRoles: ['$all'],
      },
      owner: 'tagtrail',
      facility: { id: 'DEFAULT', zones: 3 },
      tags: ['a', 'b'],
    };
    const set = await fx.client.setStreamMetadata(stream, metadata);
    expect(set.nextExpectedRevision, 'metastream revision after the first write').to.equal(0n);
    const got = await fx.client.getStreamMetadata(stream);
    expect(got.streamName).to.equal(stream);
    expect(got.metadata).to.deep.equal(metadata);
  });

  it('returns the latest metadata and advances the metastream revision on each write', async () => {
    const stream = uniqueStream('meta-rev');
    const first = await fx.client.setStreamMetadata(stream, { maxCount: 5, owner: 'one' });
    const r1 = await fx.client.getStreamMetadata(stream);
    const second = await fx.client.setStreamMetadata(stream, { maxAge: 60, owner: 'two' });
    const r2 = await fx.client.getStreamMetadata(stream);
    expect(first.nextExpectedRevision).to.equal(0n);
    expect(second.nextExpectedRevision).to.equal(1n);
    expect(r1.metadata).to.deep.equal({ maxCount: 5, owner: 'one' });
    // Metadata is replaced, not merged.
    expect(r2.metadata).to.deep.equal({ maxAge: 60, owner: 'two' });
    // @eventstore/db-client 6.2.1 fills metastreamRevision from the read event's
    // commit position; servers that omit positions on stream reads leave it unset.
    for (const r of [r1, r2]) {
      expect(r.metastreamRevision === undefined || typeof r.metastreamRevision === 'bigint').to.equal(true);
    }
    if (r1.metastreamRevision !== undefined && r2.metastreamRevision !== undefined) {
      expect(r2.metastreamRevision > r1.metastreamRevision).to.equal(true);
    }
    // The metastream itself: one $metadata event per write, revisions 0 and 1.
    const meta = await collect(fx.client.readStream(`$$${stream}`));
    expect(meta.map((e) => e.event?.revision)).to.deep.equal([0n, 1n]);
    expect(meta.map((e) => e.event?.type)).to.deep.equal(['$metadata', '$metadata']);
    expect(meta[1]?.event?.data).to.deep.equal({ $maxAge: 60, owner: 'two' });
  });

  it('checks expectedRevision on the metastream', async () => {
    const stream = uniqueStream('meta-wev');
    await fx.client.setStreamMetadata(stream, { maxCount: 5 }, { expectedRevision: NO_STREAM });
    const err = await expectRejection(
      fx.client.setStreamMetadata(stream, { maxCount: 6 }, { expectedRevision: NO_STREAM }),
      WrongExpectedVersionError,
    );
    expect(err.streamName).to.equal(`$$${stream}`);
    expect(err.actualVersion).to.equal(0n);
    const ok = await fx.client.setStreamMetadata(stream, { maxCount: 7 }, { expectedRevision: 0n });
    expect(ok.nextExpectedRevision).to.equal(1n);
    expect((await fx.client.getStreamMetadata(stream)).metadata).to.deep.equal({ maxCount: 7 });
  });

  it('returns no metadata for a stream that has none (existing or not)', async () => {
    const missing = uniqueStream('meta-none');
    const none = await fx.client.getStreamMetadata(missing);
    expect(none.streamName).to.equal(missing);
    expect(none.metadata).to.equal(undefined);
    expect(none.metastreamRevision).to.equal(undefined);

    const existing = uniqueStream('meta-none');
    await fx.client.appendToStream(existing, testEvents(2));
    const alsoNone = await fx.client.getStreamMetadata(existing);
    expect(alsoNone).to.deep.equal({ streamName: existing });
  });

  it('$maxCount limits what a read returns to the newest events', async () => {
    const stream = uniqueStream('meta-maxcount');
    await fx.client.setStreamMetadata(stream, { maxCount: 2 });
    await fx.client.appendToStream(stream, testEvents(10));
    const read = await collect(fx.client.readStream(stream));
    expect(read.map((e) => e.event?.revision)).to.deep.equal([8n, 9n]);
  });

  it('$tb (truncateBefore) hides events before that revision', async () => {
    const stream = uniqueStream('meta-tb');
    await fx.client.appendToStream(stream, testEvents(6));
    await fx.client.setStreamMetadata(stream, { truncateBefore: 4 });
    const read = await collect(fx.client.readStream(stream));
    expect(read.map((e) => e.event?.revision)).to.deep.equal([4n, 5n]);
    const next = await fx.client.appendToStream(stream, testEvents(1), { expectedRevision: 5n });
    expect(next.nextExpectedRevision).to.equal(6n);
  });
});
