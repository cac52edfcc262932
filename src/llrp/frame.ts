// LLRP message framing (LLRP 1.0.1 section 15.1): a 10-byte header of 3
// reserved bits, a 3-bit version, a 10-bit message type, a 32-bit length of
// the whole message (header included) and a 32-bit message id, big-endian.
// TCP delivers a byte stream: one read may hold part of a message or several,
// so messages are cut by the length field, never by read boundaries.
import { HEADER_BYTES, LLRP_VERSION_1_0_1 } from './constants';

export interface LlrpMessage {
  readonly version: number;
  readonly type: number;
  readonly id: number;
  /** The bytes after the header. */
  readonly body: Buffer;
}

export class LlrpFrameError extends Error {
  override name = 'LlrpFrameError';
}

/** Larger messages are refused: a corrupt length must not make us buffer without end. */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export function encodeMessage(type: number, id: number, body: Buffer = Buffer.alloc(0), version = LLRP_VERSION_1_0_1): Buffer {
  const out = Buffer.allocUnsafe(HEADER_BYTES + body.length);
  out.writeUInt16BE(((version & 0x7) << 10) | (type & 0x3ff), 0);
  out.writeUInt32BE(HEADER_BYTES + body.length, 2);
  out.writeUInt32BE(id >>> 0, 6);
  body.copy(out, HEADER_BYTES);
  return out;
}

/** Accumulates TCP reads and hands out whole messages in order. */
export class LlrpFramer {
  private chunks: Buffer[] = [];
  private buffered = 0;

  /** Adds a read; answers every message it completed (possibly none). Throws LlrpFrameError on a bad length. */
  push(chunk: Buffer): LlrpMessage[] {
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
    }
    const out: LlrpMessage[] = [];
    for (;;) {
      if (this.buffered < HEADER_BYTES) return out;
      const head = this.peek(HEADER_BYTES);
      const length = head.readUInt32BE(2);
      if (length < HEADER_BYTES || length > MAX_MESSAGE_BYTES) {
        throw new LlrpFrameError(`message length ${length} outside ${HEADER_BYTES}..${MAX_MESSAGE_BYTES}`);
      }
      if (this.buffered < length) return out;
      const whole = this.take(length);
      const word = whole.readUInt16BE(0);
      out.push({ version: (word >> 10) & 0x7, type: word & 0x3ff, id: whole.readUInt32BE(6), body: whole.subarray(HEADER_BYTES) });
    }
  }

  /** Bytes held that do not yet make a whole message. */
  get pending(): number {
    return this.buffered;
  }

  private peek(n: number): Buffer {
    const first = this.chunks[0] as Buffer;
    if (first.length >= n) return first;
    this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0] as Buffer;
  }

  private take(n: number): Buffer {
    let first = this.chunks[0] as Buffer;
    if (first.length < n) {
      this.chunks = [Buffer.concat(this.chunks)];
      first = this.chunks[0] as Buffer;
    }
    const whole = first.subarray(0, n);
    if (first.length === n) this.chunks.shift();
    else this.chunks[0] = first.subarray(n);
    this.buffered -= n;
    return whole;
  }
}
