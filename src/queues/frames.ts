// AMQP 0-9-1 frames of basic.publish messages, encoded for a whole batch into
// one buffer. Pure: ./publisher.ts hands the buffers to amqplib's channel.
//
// Why not amqplib's `publish` per message: at one queue the relay's own CPU
// is what limits it (docs/benchmarks.md, "Relay"), and amqplib spends per
// message five buffer allocations, a table encoding of the (empty) headers,
// one object-mode stream write and one socket write (a system call). Here a
// batch costs one allocation and, in amqplib's channel stream, a few chunks.
// The bytes are exactly what amqplib's encoder sends for
// `publish('', queue, body, {mandatory: true, persistent, messageId,
// contentType})` (test/queues/frames.unit.spec.ts compares them).

/** One message as the broker receives it: default exchange, routed by queue name. */
export interface PublishFrame {
  readonly queue: string;
  readonly body: Buffer;
  /** `<event id>:<index>`: the same for every copy of one change, so consumers drop duplicates. */
  readonly messageId: string;
  readonly persistent: boolean;
}

/** Consecutive messages' frames in one buffer. */
export interface PublishChunk {
  readonly bytes: Buffer;
  readonly messages: number;
}

const FRAME_METHOD = 1;
const FRAME_HEADER = 2;
const FRAME_BODY = 3;
const FRAME_END = 0xce;
/** Type (1), channel (2), size (4) before the payload; frame end (1) after it. */
const FRAME_OVERHEAD = 8;
const CLASS_BASIC = 60;
const METHOD_PUBLISH = 40;
/**
 * JSON with its encoding named. Not the bare `application/json`: the AMQP
 * library of the public Node client (`amqp` 0.2, node-amqp) compares the
 * content type with exactly `application/json` (or `text/json`) and then
 * hands its listener an already parsed object instead of `{data: <bytes>}`,
 * while that client parses `data` itself and so fails on every message. With
 * the parameter node-amqp passes the bytes on, and every other consumer
 * (amqplib, pika, anything matching on "json") still sees a JSON type; a
 * charset parameter changes nothing for a JSON reader (RFC 8259, section 11).
 */
export const MESSAGE_CONTENT_TYPE = 'application/json; charset=utf-8';
const CONTENT_TYPE_BYTES = Buffer.from(MESSAGE_CONTENT_TYPE, 'latin1');
// Property flags of basic.properties, highest bit first (AMQP 0-9-1, 4.2.6.1 and the class's field list).
const FLAG_CONTENT_TYPE = 1 << 15;
const FLAG_HEADERS = 1 << 13;
const FLAG_DELIVERY_MODE = 1 << 12;
const FLAG_MESSAGE_ID = 1 << 7;
const FLAGS = FLAG_CONTENT_TYPE | FLAG_HEADERS | FLAG_DELIVERY_MODE | FLAG_MESSAGE_ID;
/** basic.publish `mandatory`: a message no queue takes comes back (basic.return), see ./publisher.ts. */
const MANDATORY = 1;

function shortString(s: string, field: string): number {
  const n = Buffer.byteLength(s, 'utf8');
  if (n > 255) throw new RangeError(`${field} is longer than 255 bytes: ${s.slice(0, 40)}…`);
  return n;
}

/** Bytes of one message's frames: method + header + body frames of at most `frameMax` bytes each. */
function sizeOf(m: PublishFrame, queueLen: number, idLen: number, maxBody: number): number {
  const method = FRAME_OVERHEAD + 4 + 2 + 1 + 0 + 1 + queueLen + 1;
  const properties = 1 + CONTENT_TYPE_BYTES.length + 4 + 1 + 1 + idLen;
  const header = FRAME_OVERHEAD + 2 + 2 + 8 + 2 + properties;
  const bodyFrames = Math.ceil(m.body.length / maxBody);
  return method + header + bodyFrames * FRAME_OVERHEAD + m.body.length;
}

/**
 * The frames of `messages` on `channel`, in order, as buffers of about
 * `chunkBytes` each (a message is never split across two). `frameMax` is the
 * connection's negotiated frame size: larger bodies take several body frames.
 */
export function encodePublishes(channel: number, messages: readonly PublishFrame[], frameMax: number, chunkBytes = 256 * 1024): PublishChunk[] {
  const maxBody = frameMax - FRAME_OVERHEAD;
  if (!(maxBody > 0)) throw new RangeError(`frameMax ${frameMax} leaves no room for a body frame`);
  const chunks: PublishChunk[] = [];
  // The byte lengths of each message's queue and id, measured once for both passes (plain numbers, no object per message).
  const queueLens: number[] = [];
  const idLens: number[] = [];
  let start = 0;
  while (start < messages.length) {
    // Sizes first, so the chunk is one allocation (uninitialised: every byte is written below).
    let size = 0;
    let end = start;
    while (end < messages.length && (end === start || size < chunkBytes)) {
      const m = messages[end]!;
      const queueLen = shortString(m.queue, 'queue');
      const idLen = shortString(m.messageId, 'messageId');
      queueLens[end - start] = queueLen;
      idLens[end - start] = idLen;
      size += sizeOf(m, queueLen, idLen, maxBody);
      end++;
    }
    const buf = Buffer.allocUnsafe(size);
    let o = 0;
    for (let i = start; i < end; i++) {
      const m = messages[i]!;
      o = writeMethodFrame(buf, o, channel, m.queue, queueLens[i - start]!);
      o = writeHeaderFrame(buf, o, channel, m, idLens[i - start]!);
      o = writeBodyFrames(buf, o, channel, m.body, maxBody);
    }
    if (o !== size) throw new Error(`publish frames: wrote ${o} of ${size} bytes`);
    chunks.push({ bytes: buf, messages: end - start });
    start = end;
  }
  return chunks;
}

// The writers below take the buffer and offset and answer the offset after
// what they wrote: plain functions, no per-message allocation.

/** Method frame: basic.publish(ticket 0, exchange '', routing key = queue, mandatory). */
function writeMethodFrame(buf: Buffer, o: number, channel: number, queue: string, queueLen: number): number {
  const methodStart = o;
  buf[o++] = FRAME_METHOD;
  o = buf.writeUInt16BE(channel, o);
  o += 4; // payload size, below
  o = buf.writeUInt16BE(CLASS_BASIC, o);
  o = buf.writeUInt16BE(METHOD_PUBLISH, o);
  o = buf.writeUInt16BE(0, o);
  buf[o++] = 0;
  buf[o++] = queueLen;
  o += buf.write(queue, o, queueLen, 'utf8');
  buf[o++] = MANDATORY;
  buf.writeUInt32BE(o - methodStart - 7, methodStart + 3);
  buf[o++] = FRAME_END;
  return o;
}

/** Header frame: class, weight 0, body size (64 bit), flags, then the properties in flag order. */
function writeHeaderFrame(buf: Buffer, o: number, channel: number, m: PublishFrame, idLen: number): number {
  const headerStart = o;
  buf[o++] = FRAME_HEADER;
  o = buf.writeUInt16BE(channel, o);
  o += 4;
  o = buf.writeUInt16BE(CLASS_BASIC, o);
  o = buf.writeUInt16BE(0, o);
  o = buf.writeUInt32BE(Math.floor(m.body.length / 0x1_0000_0000), o);
  o = buf.writeUInt32BE(m.body.length >>> 0, o);
  o = buf.writeUInt16BE(FLAGS, o);
  buf[o++] = CONTENT_TYPE_BYTES.length;
  o += CONTENT_TYPE_BYTES.copy(buf, o);
  o = buf.writeUInt32BE(0, o); // headers: an empty table, as amqplib always sends one
  buf[o++] = m.persistent ? 2 : 1;
  buf[o++] = idLen;
  o += buf.write(m.messageId, o, idLen, 'utf8');
  buf.writeUInt32BE(o - headerStart - 7, headerStart + 3);
  buf[o++] = FRAME_END;
  return o;
}

/** Body frames of at most `maxBody` bytes each. */
function writeBodyFrames(buf: Buffer, o: number, channel: number, body: Buffer, maxBody: number): number {
  for (let at = 0; at < body.length; at += maxBody) {
    const part = Math.min(maxBody, body.length - at);
    buf[o++] = FRAME_BODY;
    o = buf.writeUInt16BE(channel, o);
    o = buf.writeUInt32BE(part, o);
    // set, not copy: Buffer#copy makes a Uint8Array view per call, a measurable cost per message.
    buf.set(part === body.length ? body : body.subarray(at, at + part), o);
    o += part;
    buf[o++] = FRAME_END;
  }
  return o;
}
