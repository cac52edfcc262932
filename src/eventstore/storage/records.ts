// Layout of one stored event. The value kept in the log is a small header
// (what filters, idempotency checks and stream reads need without parsing
// protobuf) followed by the ready-to-send protobuf RecordedEvent.
import { bigVarintSize, lenFieldSize, ProtoBuffer } from './protowriter';

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

function strField(field: number, len: number): number {
  return lenFieldSize(field, len);
}

/**
 * One stored record: header (stream, type, id, revision, created) then the
 * protobuf ReadResp.ReadEvent.RecordedEvent, both written into one buffer.
 */
export function encodeRecord(r: NewRecord): Buffer {
  const streamLen = Buffer.byteLength(r.stream, 'utf8');
  const typeLen = Buffer.byteLength(r.type, 'utf8');
  const ctLen = Buffer.byteLength(r.contentType, 'utf8');
  const created = r.createdTicks.toString();
  const idLen = r.id.length; // ASCII
  const uuidMsg = strField(2, idLen);
  const streamMsg = strField(3, streamLen);
  const metaEntry = (k: number, v: number): number => strField(1, k) + strField(2, v);
  const e1 = metaEntry(4, typeLen);
  const e2 = metaEntry(12, ctLen);
  const e3 = metaEntry(7, created.length);
  const posSize = bigVarintSize(r.position);
  const protoLen =
    lenFieldSize(1, uuidMsg) +
    lenFieldSize(2, streamMsg) +
    1 + bigVarintSize(r.revision) +
    2 * (1 + posSize) +
    lenFieldSize(6, e1) + lenFieldSize(6, e2) + lenFieldSize(6, e3) +
    (r.metadata.length > 0 ? lenFieldSize(7, r.metadata.length) : 0) +
    (r.data.length > 0 ? lenFieldSize(8, r.data.length) : 0);
  const headLen = 1 + 4 + streamLen + 2 + typeLen + 1 + idLen + 8 + 8;
  const buf = Buffer.allocUnsafe(headLen + protoLen);
  let o = buf.writeUInt8(FORMAT, 0);
  o = buf.writeUInt32LE(streamLen, o);
  o += buf.write(r.stream, o, streamLen, 'utf8');
  o = buf.writeUInt16LE(typeLen, o);
  o += buf.write(r.type, o, typeLen, 'utf8');
  o = buf.writeUInt8(idLen, o);
  o += buf.write(r.id, o, idLen, 'latin1');
  o = buf.writeBigUInt64LE(r.revision, o);
  buf.writeBigUInt64LE(r.createdTicks, o);
  const w = new ProtoBuffer(buf.subarray(headLen));
  w.lenHeader(1, uuidMsg).string(2, r.id, idLen);
  w.lenHeader(2, streamMsg).string(3, r.stream, streamLen);
  w.uint64(3, r.revision).uint64(4, r.position).uint64(5, r.position);
  w.lenHeader(6, e1).string(1, 'type', 4).string(2, r.type, typeLen);
  w.lenHeader(6, e2).string(1, 'content-type', 12).string(2, r.contentType, ctLen);
  w.lenHeader(6, e3).string(1, 'created', 7).string(2, created, created.length);
  if (r.metadata.length > 0) w.bytes(7, r.metadata);
  if (r.data.length > 0) w.bytes(8, r.data);
  if (w.offset !== protoLen) throw new Error(`record size mismatch ${w.offset} != ${protoLen}`);
  return buf;
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
/**
 * One store's time in ticks (100 ns) since the Unix epoch, from its clock
 * (the system clock unless a test moves it on). Kept per store, not per
 * process: a test that moves one service's clock on must not move the
 * record times of the next service started in the same process.
 */
export class RecordClock {
  private last = 0n;
  constructor(private readonly nowMs: () => number = Date.now) {}
  /** Now (the cut-off of a stream's maxAge). */
  now(): bigint {
    return BigInt(this.nowMs()) * TICKS_PER_MS;
  }
  /** A record's creation time: now, or just after the last one, so they strictly increase. */
  next(): bigint {
    let t = this.now();
    if (t <= this.last) t = this.last + 1n;
    this.last = t;
    return t;
  }
}
