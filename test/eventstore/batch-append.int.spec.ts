// appendToStream over the BatchAppend RPC: the client uses it when the server
// advertises streams/batchappend and no per-call credentials are given. One
// long-lived duplex stream carries many appends, told apart by correlation id.
import { expect } from 'chai';
import { ANY, MaxAppendSizeExceededError, NO_STREAM, jsonEvent } from '@eventstore/db-client';
import { describeAppendContract } from '../support/append-contract';
import { uniqueStream, withEventStore } from '../support/eventstore';
import { collect, comparePositions, expectRejection, testEvents } from '../support/helpers';

describe('event store contract: batch append (BatchAppend RPC)', () => {
  const fx = withEventStore();

  describeAppendContract('BatchAppend', fx, {});

  it('writes an append split over several BatchAppend chunks as one atomic append', async () => {
    const stream = uniqueStream('batch-chunks');
    const events = testEvents(200);
    // ~2 KiB chunks force the client to send many requests with one correlation id.
    const result = await fx.client.appendToStream(stream, events, { expectedRevision: NO_STREAM, batchAppendSize: 2048 });
    expect(result.nextExpectedRevision).to.equal(199n);
    const read = await collect(fx.client.readStream(stream));
    expect(read.map((e) => e.event?.id)).to.deep.equal(events.map((e) => e.id));
    expect(read.map((e) => e.event?.revision)).to.deep.equal(events.map((_, i) => BigInt(i)));
  });

  it('counts the size over all chunks of one append for the maximum append size', async function () {
    this.timeout(30_000);
    const stream = uniqueStream('batch-chunks-max');
    const big = 'z'.repeat(400 * 1024);
    const events = [0, 1, 2].map((i) => jsonEvent({ type: 'Big', data: { i, big } }));
    const err = await expectRejection(
      fx.client.appendToStream(stream, events, { expectedRevision: NO_STREAM, batchAppendSize: 512 * 1024 }),
      MaxAppendSizeExceededError,
    );
    expect(err.type).to.equal('maximum-append-size-exceeded');
    const again = await fx.client.appendToStream(stream, testEvents(1), { expectedRevision: NO_STREAM });
    expect(again.nextExpectedRevision).to.equal(0n);
    expect(await collect(fx.client.readStream(stream))).to.have.length(1);
  });

  it('answers concurrent appends to different streams each with its own result', async () => {
    const streams = Array.from({ length: 30 }, () => uniqueStream('batch-concurrent'));
    const results = await Promise.all(
      streams.map((s, i) => fx.client.appendToStream(s, testEvents((i % 3) + 1), { expectedRevision: NO_STREAM })),
    );
    results.forEach((r, i) => expect(r.nextExpectedRevision).to.equal(BigInt(i % 3)));
    const positions = results.map((r) => r.position!);
    positions.forEach((p) => expect(p).to.not.equal(undefined));
    const keys = new Set(positions.map((p) => `${p.commit}/${p.prepare}`));
    expect(keys.size).to.equal(streams.length);
    for (let i = 0; i < streams.length; i++) {
      const read = await collect(fx.client.readStream(streams[i]!));
      expect(read).to.have.length((i % 3) + 1);
    }
  });

  it('serialises concurrent appends to one stream into contiguous revisions', async () => {
    const stream = uniqueStream('batch-same');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => fx.client.appendToStream(stream, testEvents(2, { from: i * 2 }), { expectedRevision: ANY })),
    );
    const nexts = results.map((r) => r.nextExpectedRevision).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(nexts).to.deep.equal(Array.from({ length: 20 }, (_, i) => BigInt(i * 2 + 1)));
    const sortedPositions = results.map((r) => r.position!).sort(comparePositions);
    const byRevision = [...results].sort((a, b) => (a.nextExpectedRevision < b.nextExpectedRevision ? -1 : 1));
    expect(byRevision.map((r) => r.position)).to.deep.equal(sortedPositions);
    const read = await collect(fx.client.readStream(stream));
    expect(read.map((e) => e.event?.revision)).to.deep.equal(Array.from({ length: 40 }, (_, i) => BigInt(i)));
    // Each append's two events stay adjacent (appends are atomic).
    for (let i = 0; i < 40; i += 2) {
      const a = (read[i]?.event?.data as { n: number }).n;
      const b = (read[i + 1]?.event?.data as { n: number }).n;
      expect(b).to.equal(a + 1);
      expect(a % 2).to.equal(0);
    }
  });
});
