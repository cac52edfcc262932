import { expect } from 'chai';
import { CorruptRecord, decodeHeader, decodeRecord, encodeRecord, RecordClock, type NewRecord } from '../../../src/eventstore/storage/records';
import { streamsPb } from '../../support/client-protocol';
import { eventResp } from '../../../src/eventstore/grpc/readresp';

const base: NewRecord = {
  stream: 'order-ü-1',
  revision: 41n,
  position: 123456789012n,
  id: '0b6a3a58-6d3b-4f24-9a57-2a5c0f7b9d10',
  type: 'ItemMoved',
  contentType: 'application/json',
  createdTicks: 17000000000000000n,
  data: Buffer.from(JSON.stringify({ epc: 'E280', zone: 'A' })),
  metadata: Buffer.from('{"correlationId":"c1"}'),
};

describe('stored records', () => {
  it('keep header fields readable without protobuf', () => {
    const rec = decodeRecord(base.position, encodeRecord(base));
    expect(rec).to.include({ stream: base.stream, type: base.type, id: base.id, revision: 41n, position: base.position });
    expect(rec.createdTicks).to.equal(base.createdTicks);
  });

  it("hold a RecordedEvent that the client's own decoder reads field by field", () => {
    const rec = decodeRecord(base.position, encodeRecord(base));
    const ev = streamsPb.ReadResp.ReadEvent.RecordedEvent.deserializeBinary(rec.proto);
    expect(ev.getId()?.getString()).to.equal(base.id);
    expect(Buffer.from(ev.getStreamIdentifier()!.getStreamName_asU8()).toString('utf8')).to.equal(base.stream);
    expect(ev.getStreamRevision()).to.equal('41');
    expect(ev.getCommitPosition()).to.equal('123456789012');
    expect(ev.getPreparePosition()).to.equal('123456789012');
    const meta = ev.getMetadataMap();
    expect(meta.get('type')).to.equal('ItemMoved');
    expect(meta.get('content-type')).to.equal('application/json');
    expect(meta.get('created')).to.equal('17000000000000000');
    expect(Buffer.from(ev.getData_asU8()).toString()).to.equal('{"epc":"E280","zone":"A"}');
    expect(Buffer.from(ev.getCustomMetadata_asU8()).toString()).to.equal('{"correlationId":"c1"}');
  });

  it('encode empty data and metadata as absent fields', () => {
    const rec = decodeRecord(base.position, encodeRecord({ ...base, data: new Uint8Array(), metadata: new Uint8Array() }));
    const ev = streamsPb.ReadResp.ReadEvent.RecordedEvent.deserializeBinary(rec.proto);
    expect(ev.getData_asU8().length).to.equal(0);
    expect(ev.getCustomMetadata_asU8().length).to.equal(0);
  });

  it('support the tombstone revision (2^63-1)', () => {
    const rec = decodeRecord(base.position, encodeRecord({ ...base, revision: 9223372036854775807n }));
    const ev = streamsPb.ReadResp.ReadEvent.RecordedEvent.deserializeBinary(rec.proto);
    expect(ev.getStreamRevision()).to.equal('9223372036854775807');
  });

  it('wrap into a ReadResp event the client can parse', () => {
    const rec = decodeRecord(base.position, encodeRecord(base));
    const resp = streamsPb.ReadResp.deserializeBinary(eventResp(rec.proto, rec.position));
    expect(resp.hasEvent()).to.equal(true);
    expect(resp.getEvent()?.getCommitPosition()).to.equal('123456789012');
    expect(resp.getEvent()?.getEvent()?.getId()?.getString()).to.equal(base.id);
  });

  it('refuse any changed byte as damaged, naming the position', () => {
    const good = encodeRecord(base);
    const missed: number[] = [];
    for (let i = 0; i < good.length; i++) {
      const bad = Buffer.from(good);
      bad[i] = (bad[i] ?? 0) ^ 0x10;
      try {
        decodeRecord(base.position, bad);
        missed.push(i);
      } catch (err) {
        if (!(err instanceof CorruptRecord) || err.position !== base.position) missed.push(i);
      }
    }
    expect(missed, 'bytes whose change went unnoticed').to.deep.equal([]);
  });

  it('refuse a sound record found at another position', () => {
    expect(() => decodeRecord(base.position + 1n, encodeRecord(base))).to.throw(CorruptRecord, /checksum mismatch/);
  });

  it('refuse cut-short and empty records as damaged', () => {
    const good = encodeRecord(base);
    expect(() => decodeRecord(base.position, good.subarray(0, 3))).to.throw(CorruptRecord, /cut short/);
    expect(() => decodeRecord(base.position, Buffer.alloc(0))).to.throw(CorruptRecord, /empty/);
  });

  it('still read records written before checksums (format 1), and refuse them when their header is cut short', () => {
    const current = encodeRecord(base);
    // Format 1 is format 2 without the checksum: the format byte, then the same header and protobuf.
    const legacy = Buffer.concat([Buffer.from([1]), current.subarray(5)]);
    expect(decodeRecord(7n, legacy)).to.include({ stream: base.stream, id: base.id, revision: 41n, position: 7n });
    expect(() => decodeHeader(7n, legacy.subarray(0, 12))).to.throw(CorruptRecord, /position 7/);
  });

  it('give strictly increasing creation ticks, from the system clock by default', () => {
    const clock = new RecordClock();
    const a = clock.next();
    const b = clock.next();
    expect(b > a).to.equal(true);
    expect(Number(a / 10_000n)).to.be.closeTo(Date.now(), 1000);
  });

  it('keep creation ticks per clock: one moved ahead does not move another', () => {
    let offset = 0;
    const ahead = new RecordClock(() => Date.now() + offset);
    offset = 60_000;
    const late = ahead.next();
    const other = new RecordClock();
    const t = other.next();
    expect(Number(late / 10_000n)).to.be.closeTo(Date.now() + 60_000, 1000);
    expect(Number(t / 10_000n), 'the other clock is not pushed past the first one').to.be.closeTo(Date.now(), 1000);
    expect(other.now() < late).to.equal(true);
  });
});
