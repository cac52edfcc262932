// A minimal protobuf encoder for the hot paths. Every event read or streamed
// to a client is a ReadResp{event{event: RecordedEvent}}; building those
// through google-protobuf objects costs more than the rest of the read path
// together, so records are encoded once, at append time, into one buffer
// whose size is computed first (no intermediate allocations).

export function varintSize(n: number): number {
  let size = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

export function bigVarintSize(n: bigint): number {
  return n <= BigInt(Number.MAX_SAFE_INTEGER) ? varintSize(Number(n)) : Math.ceil(n.toString(2).length / 7);
}

/** Size of a length-delimited field (tag + length + body). */
export function lenFieldSize(field: number, bodyLength: number): number {
  return varintSize(field << 3) + varintSize(bodyLength) + bodyLength;
}

export class ProtoBuffer {
  private o = 0;
  constructor(readonly buf: Buffer) {}

  get offset(): number {
    return this.o;
  }

  varint(n: number): this {
    while (n >= 128) {
      this.buf[this.o++] = (n % 128) | 0x80;
      n = Math.floor(n / 128);
    }
    this.buf[this.o++] = n;
    return this;
  }

  bigVarint(n: bigint): this {
    if (n <= BigInt(Number.MAX_SAFE_INTEGER)) return this.varint(Number(n));
    while (n >= 128n) {
      this.buf[this.o++] = Number(n & 0x7fn) | 0x80;
      n >>= 7n;
    }
    this.buf[this.o++] = Number(n);
    return this;
  }

  tag(field: number, wire: 0 | 2): this {
    return this.varint((field << 3) | wire);
  }

  uint64(field: number, n: bigint): this {
    return this.tag(field, 0).bigVarint(n);
  }

  /** Starts a length-delimited field whose body is `length` bytes. */
  lenHeader(field: number, length: number): this {
    return this.tag(field, 2).varint(length);
  }

  bytes(field: number, b: Uint8Array): this {
    this.lenHeader(field, b.length);
    this.buf.set(b, this.o);
    this.o += b.length;
    return this;
  }

  /** Writes a string field whose UTF-8 length is already known. */
  string(field: number, s: string, byteLength: number): this {
    this.lenHeader(field, byteLength);
    this.o += this.buf.write(s, this.o, byteLength, 'utf8');
    return this;
  }

  raw(b: Uint8Array): this {
    this.buf.set(b, this.o);
    this.o += b.length;
    return this;
  }
}
