// A minimal protobuf writer for the hot read path. Every event read or
// streamed to a client is a ReadResp{event{event: RecordedEvent}}; building
// those through google-protobuf objects costs more than the rest of the read
// path together, so records are encoded once, at append time, and reads only
// wrap the stored bytes.

const WIRE_VARINT = 0;
const WIRE_LEN = 2;

export class ProtoWriter {
  private chunks: Buffer[] = [];
  private size = 0;

  private push(b: Buffer): void {
    this.chunks.push(b);
    this.size += b.length;
  }

  private varint(value: bigint | number): void {
    let v = BigInt(value);
    const bytes: number[] = [];
    while (v > 0x7fn) {
      bytes.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    bytes.push(Number(v));
    this.push(Buffer.from(bytes));
  }

  private smallVarint(n: number): void {
    // Fast path for tags and lengths (always < 2^31 here).
    const bytes: number[] = [];
    while (n > 0x7f) {
      bytes.push((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    bytes.push(n);
    this.push(Buffer.from(bytes));
  }

  private tag(field: number, wire: number): void {
    this.smallVarint((field << 3) | wire);
  }

  uint64(field: number, value: bigint | number): this {
    this.tag(field, WIRE_VARINT);
    this.varint(value);
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, WIRE_LEN);
    this.smallVarint(value.length);
    this.push(Buffer.from(value.buffer, value.byteOffset, value.length));
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, Buffer.from(value, 'utf8'));
  }

  message(field: number, body: Buffer): this {
    return this.bytes(field, body);
  }

  finish(): Buffer {
    return Buffer.concat(this.chunks, this.size);
  }
}
