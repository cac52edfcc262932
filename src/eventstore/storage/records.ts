// Layout of one stored event. The value kept in the log is a small header
// (what filters, idempotency checks and stream reads need without parsing
// protobuf) followed by the ready-to-send protobuf RecordedEvent.
import { ProtoWriter } from './protowriter';

export interface NewRecord {
  stream: string;
  revision: bigint;
  position: bigint;
  id: string; // canonical lower-case UUID
  type: string;
  contentType: string;
  createdTicks: bigint; // 100 ns ticks since the Unix epoch
  data: Uint8Array;
  metadata: Uint8Array;
}

export interface RecordHeader {
  stream: string;
  type: string;
  id: string;
  revision: bigint;
  createdTicks: bigint;
}

export interface StoredRecord extends RecordHeader {
  position: bigint;
  proto: Buffer; // encoded ReadResp.ReadEvent.RecordedEvent
}

const FORMAT = 1;

export function encodeRecordedEvent(r: NewRecord): Buffer {
  const w = new ProtoWriter();
  w.message(1, new ProtoWriter().string(2, r.id).finish()); // UUID{string}
  w.message(2, new ProtoWriter().string(3, r.stream).finish()); // StreamIdentifier{stream_name}
  w.uint64(3, r.revision);
  w.uint64(4, r.position); // prepare
  w.uint64(5, r.position); // commit
  const meta: Array<[string, string]> = [
    ['type', r.type],
    ['content-type', r.contentType],
    ['created', r.createdTicks.toString()],
  ];
  for (const [k, v] of meta) w.message(6, new ProtoWriter().string(1, k).string(2, v).finish());
  if (r.metadata.length > 0) w.bytes(7, r.metadata);
  if (r.data.length > 0) w.bytes(8, r.data);
  return w.finish();
}

export function encodeRecord(r: NewRecord): Buffer {
  const stream = Buffer.from(r.stream, 'utf8');
  const type = Buffer.from(r.type, 'utf8');
  const id = Buffer.from(r.id, 'latin1');
  const proto = encodeRecordedEvent(r);
  const head = Buffer.allocUnsafe(1 + 4 + stream.length + 2 + type.length + 1 + id.length + 8 + 8);
  let o = head.writeUInt8(FORMAT, 0);
  o = head.writeUInt32LE(stream.length, o);
  o += stream.copy(head, o);
  o = head.writeUInt16LE(type.length, o);
  o += type.copy(head, o);
  o = head.writeUInt8(id.length, o);
  o += id.copy(head, o);
  o = head.writeBigUInt64LE(r.revision, o);
  head.writeBigUInt64LE(r.createdTicks, o);
  return Buffer.concat([head, proto]);
}

export function decodeHeader(buf: Uint8Array): RecordHeader & { protoOffset: number } {
  const b = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.length);
  if (b.readUInt8(0) !== FORMAT) throw new Error(`unknown record format ${b.readUInt8(0)}`);
  let o = 1;
  const sl = b.readUInt32LE(o);
  o += 4;
  const stream = b.toString('utf8', o, o + sl);
  o += sl;
  const tl = b.readUInt16LE(o);
  o += 2;
  const type = b.toString('utf8', o, o + tl);
  o += tl;
  const il = b.readUInt8(o);
  o += 1;
  const id = b.toString('latin1', o, o + il);
  o += il;
  const revision = b.readBigUInt64LE(o);
  o += 8;
  const createdTicks = b.readBigUInt64LE(o);
  o += 8;
  return { stream, type, id, revision, createdTicks, protoOffset: o };
}

export function decodeRecord(position: bigint, buf: Uint8Array): StoredRecord {
  const h = decodeHeader(buf);
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.length);
  return { ...h, position, proto: b.subarray(h.protoOffset) };
}

const TICKS_PER_MS = 10_000n;
let lastTicks = 0n;
/** Ticks since the Unix epoch, strictly increasing within the process. */
export function nowTicks(): bigint {
  let t = BigInt(Date.now()) * TICKS_PER_MS;
  if (t <= lastTicks) t = lastTicks + 1n;
  lastTicks = t;
  return t;
}
