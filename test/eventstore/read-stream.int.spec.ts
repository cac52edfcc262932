// readStream: direction, start points, maxCount, missing streams, and every
// field of a recorded event as the client decodes it.
import { expect } from 'chai';
import {
  BACKWARDS,
  END,
  FORWARDS,
  NO_STREAM,
  START,
  StreamNotFoundError,
  binaryEvent,
  jsonEvent,
  type ResolvedEvent,
} from '@eventstore/db-client';
import { uniqueStream, withEventStore } from '../support/eventstore';
import { collect, expectRejection, testEvents } from '../support/helpers';

const revisions = (events: ResolvedEvent[]): Array<bigint | undefined> => events.map((e) => e.event?.revision);

describe('event store contract: read stream', () => {
  const fx = withEventStore();
  let stream: string;
  const ids: string[] = [];

  before(async () => {
    stream = uniqueStream('read');
    const events = testEvents(10);
    ids.push(...events.map((e) => e.id));
    await fx.client.appendToStream(stream, events.slice(0, 4), { expectedRevision: NO_STREAM });
    await fx.client.appendToStream(stream, events.slice(4), { expectedRevision: 3n });
  });

  it('reads forwards from START by default, in revision order', async () => {
    const read = await collect(fx.client.readStream(stream));
    expect(revisions(read)).to.deep.equal([0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n]);
    expect(read.map((e) => e.event?.id)).to.deep.equal(ids);
    expect(read.every((e) => e.event?.streamId === stream)).to.equal(true);
  });

  it('reads forwards from START with maxCount', async () => {
    const read = await collect(fx.client.readStream(stream, { direction: FORWARDS, fromRevision: START, maxCount: 3 }));
    expect(revisions(read)).to.deep.equal([0n, 1n, 2n]);
  });

  it('reads forwards from a given revision (inclusive)', async () => {
    const read = await collect(fx.client.readStream(stream, { fromRevision: 6n }));
    expect(revisions(read)).to.deep.equal([6n, 7n, 8n, 9n]);
    const two = await collect(fx.client.readStream(stream, { fromRevision: 2n, maxCount: 2 }));
    expect(revisions(two)).to.deep.equal([2n, 3n]);
  });

  it('reads forwards from a revision past the end as empty', async () => {
    const read = await collect(fx.client.readStream(stream, { fromRevision: 50n }));
    expect(read).to.deep.equal([]);
  });

  it('reads backwards from END, newest first', async () => {
    const read = await collect(fx.client.readStream(stream, { direction: BACKWARDS, fromRevision: END }));
    expect(revisions(read)).to.deep.equal([9n, 8n, 7n, 6n, 5n, 4n, 3n, 2n, 1n, 0n]);
  });

  it('reads backwards from END with maxCount 1 (the last event)', async () => {
    const read = await collect(fx.client.readStream(stream, { direction: BACKWARDS, fromRevision: END, maxCount: 1 }));
    expect(revisions(read)).to.deep.equal([9n]);
    expect(read[0]?.event?.id).to.equal(ids[9]);
  });

  it('reads backwards from a given revision (inclusive)', async () => {
    const read = await collect(fx.client.readStream(stream, { direction: BACKWARDS, fromRevision: 3n }));
    expect(revisions(read)).to.deep.equal([3n, 2n, 1n, 0n]);
    const two = await collect(fx.client.readStream(stream, { direction: BACKWARDS, fromRevision: 7n, maxCount: 2 }));
    expect(revisions(two)).to.deep.equal([7n, 6n]);
  });

  it('rejects with StreamNotFoundError for a missing stream (forwards and backwards)', async () => {
    const missing = uniqueStream('missing');
    const err = await expectRejection(collect(fx.client.readStream(missing)), StreamNotFoundError);
    expect(err.type).to.equal('stream-not-found');
    expect(err.streamName).to.equal(missing);
    await expectRejection(
      collect(fx.client.readStream(missing, { direction: BACKWARDS, fromRevision: END })),
      StreamNotFoundError,
    );
  });

  describe('recorded event fields', () => {
    it('returns type, id, revision, isJson, JSON data and JSON metadata; created is near now', async () => {
      const s = uniqueStream('fields');
      const id = '8c3f4e2a-5d6b-4c7d-9e8f-0a1b2c3d4e5f';
      const data = { epc: '3034257BF7194E4000001A85', rssi: -52.5, antennas: [1, 2], nested: { ok: true }, text: 'Zoë ✓' };
      const metadata = { correlationId: 'abc', causationId: 'def', $custom: 1 };
      const before = Date.now();
      await fx.client.appendToStream(s, jsonEvent({ id, type: 'TagsReported', data, metadata }));
      const after = Date.now();
      const [read] = await collect(fx.client.readStream(s));
      const e = read?.event;
      expect(e, 'event').to.not.equal(undefined);
      expect(read?.link).to.equal(undefined);
      expect(e!.streamId).to.equal(s);
      expect(e!.type).to.equal('TagsReported');
      expect(e!.id).to.equal(id);
      expect(e!.revision).to.equal(0n);
      expect(e!.isJson).to.equal(true);
      expect(e!.data).to.deep.equal(data);
      expect(e!.metadata).to.deep.equal(metadata);
      expect(e!.created).to.be.instanceOf(Date);
      const created = e!.created.getTime();
      expect(created).to.be.within(before - 10_000, after + 10_000);
    });

    it('returns binary data and binary metadata as bytes', async () => {
      const s = uniqueStream('fields-bin');
      const data = new Uint8Array([0, 1, 2, 250, 251, 252, 253, 254, 255]);
      // Not valid JSON, so the client must hand it back as bytes.
      const metadata = new Uint8Array([0xff, 0x00, 0x7b, 0x01]);
      const ev = binaryEvent({ type: 'RawFrame', data, metadata });
      await fx.client.appendToStream(s, ev);
      const [read] = await collect(fx.client.readStream(s));
      const e = read?.event;
      expect(e, 'event').to.not.equal(undefined);
      expect(e!.type).to.equal('RawFrame');
      expect(e!.id).to.equal(ev.id);
      expect(e!.isJson).to.equal(false);
      expect(e!.data).to.be.instanceOf(Uint8Array);
      expect(Buffer.from(e!.data as Uint8Array).equals(Buffer.from(data))).to.equal(true);
      expect(e!.metadata).to.be.instanceOf(Uint8Array);
      expect(Buffer.from(e!.metadata as Uint8Array).equals(Buffer.from(metadata))).to.equal(true);
      expect(Math.abs(e!.created.getTime() - Date.now())).to.be.lessThan(10_000);
    });

    it('returns JSON metadata on a binary event and no metadata when none was given', async () => {
      const s = uniqueStream('fields-mixed');
      await fx.client.appendToStream(s, [
        binaryEvent({ type: 'WithJsonMeta', data: Buffer.from('hello'), metadata: { who: 'reader-1' } }),
        jsonEvent({ type: 'NoMeta', data: { a: 1 } }),
      ]);
      const read = await collect(fx.client.readStream(s));
      expect(read[0]?.event?.isJson).to.equal(false);
      expect(Buffer.from(read[0]?.event?.data as Uint8Array).toString('utf8')).to.equal('hello');
      expect(read[0]?.event?.metadata).to.deep.equal({ who: 'reader-1' });
      expect(read[1]?.event?.metadata).to.equal(undefined);
      expect(read[1]?.event?.data).to.deep.equal({ a: 1 });
    });

    it('gives stream events positions that increase with the revision when positions are present', async () => {
      const read = await collect(fx.client.readStream(stream));
      const withPos = read.filter((e) => e.event?.position !== undefined);
      // Servers before 22.6 omit positions on stream reads; when present they must be ordered.
      for (let i = 1; i < withPos.length; i++) {
        const prev = withPos[i - 1]!.event!.position!;
        const cur = withPos[i]!.event!.position!;
        expect(cur.commit > prev.commit || (cur.commit === prev.commit && cur.prepare > prev.prepare)).to.equal(true);
      }
    });
  });
});
