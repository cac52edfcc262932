// Layout of one stored event. The value kept in the log is a small header
// (what filters, idempotency checks and stream reads need without parsing
// protobuf) followed by the ready-to-send protobuf RecordedEvent.
//
// Format 2 (written now): u8 2, u32 LE CRC-32, then the header and the
// protobuf. The CRC covers the record's position (u64 LE) and every byte
// after the checksum, so a damaged record, and a sound record found at
// another position, are both refused on read (CorruptRecord). Format 1
// (stores written before checksums) has no checksum and is read as it is.
import { crc32 } from 'node:zlib';
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

/** The revision of a tombstone record, EventStoreDB's long.MaxValue. */
export const TOMBSTONE_REVISION = 9223372036854775807n;

const FORMAT_UNCHECKED = 1;
const FORMAT = 2;
const CRC_OFFSET = 1;
const BODY_OFFSET = 5;

/** A stored record that fails its checksum or cannot be parsed: the bytes on disk are damaged. */
export class CorruptRecord extends Error {
  constructor(
    readonly position: bigint,
    readonly reason: string,
  ) {
    super(`the event log is damaged at position ${position}: ${reason}`);
    this.name = 'CorruptRecord';
  }
}

// One scratch buffer for the position's bytes: reads check every record, an allocation each would show.
const positionBytes = Buffer.alloc(8);

function positionCrc(position: bigint): number {
  positionBytes.writeBigUInt64LE(position);
  return crc32(positionBytes);
}

/** The checksum format 2 stores for `body` (the bytes after the checksum) at `position`. */
function recordCrc(position: bigint, body: Uint8Array): number {
  return crc32(body, positionCrc(position));
}

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
  const headLen = BODY_OFFSET + 4 + streamLen + 2 + typeLen + 1 + idLen + 8 + 8;
  const buf = Buffer.allocUnsafe(headLen + protoLen);
  buf.writeUInt8(FORMAT, 0);
  let o = buf.writeUInt32LE(streamLen, BODY_OFFSET);
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
  buf.writeUInt32LE(recordCrc(r.position, buf.subarray(BODY_OFFSET)), CRC_OFFSET);
  return buf;
}

/** The record's format, after checking its checksum (format 2) at `position`. */
function checkedFormat(position: bigint, b: Buffer): number {
  if (b.length === 0) throw new CorruptRecord(position, 'the record is empty');
  const format = b[0];
  if (format === FORMAT_UNCHECKED) return format;
  if (format !== FORMAT) throw new CorruptRecord(position, `unknown record format ${format}`);
  if (b.length < BODY_OFFSET) throw new CorruptRecord(position, 'the record is cut short');
  if (b.readUInt32LE(CRC_OFFSET) !== recordCrc(position, b.subarray(BODY_OFFSET))) throw new CorruptRecord(position, 'checksum mismatch');
  return format;
}

/** The header of the record stored at `position`; CorruptRecord when its bytes are damaged. */
export function decodeHeader(position: bigint, buf: Uint8Array): RecordHeader & { protoOffset: number } {
  return decodeBufferHeader(position, asBuffer(buf));
}

function asBuffer(buf: Uint8Array): Buffer {
  return Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.length);
}

function decodeBufferHeader(position: bigint, b: Buffer): RecordHeader & { protoOffset: number } {
  const format = checkedFormat(position, b);
  try {
    return parseHeader(b, format === FORMAT ? BODY_OFFSET : 1);
  } catch (err) {
    // Only a format-1 record (no checksum) can get here with damaged bytes.
    throw new CorruptRecord(position, err instanceof Error ? err.message : String(err));
  }
}

function parseHeader(b: Buffer, start: number): RecordHeader & { protoOffset: number } {
  let o = start;
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
  if (o > b.length) throw new RangeError('the header runs past the end of the record');
  return { stream, type, id, revision, createdTicks, protoOffset: o };
}

export function decodeRecord(position: bigint, buf: Uint8Array): StoredRecord {
  const b = asBuffer(buf);
  const h = decodeBufferHeader(position, b);
  return { stream: h.stream, type: h.type, id: h.id, revision: h.revision, createdTicks: h.createdTicks, position, proto: b.subarray(h.protoOffset) };
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
