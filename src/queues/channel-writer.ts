// The seam between the relay's batch encoder (./frames.ts) and amqplib: the
// frames go into the channel's own write buffer, the same stream amqplib's
// `publish` writes to, so they keep their order with everything else on the
// channel and amqplib's multiplexer, flow control ('drain') and heartbeats
// work as before; the confirm callbacks go into amqplib's delivery-tag
// bookkeeping (`pushConfirmCallback`, what ConfirmChannel#publish calls), so
// acks, nacks and a closing channel settle them as they would settle
// `publish`'s.
//
// These are amqplib internals (checked with amqplib 2.3.1, pinned exactly in
// package.json), and this module is the only one that touches them: re-check
// on every upgrade. test/queues/channel-writer.int.spec.ts fails, naming the
// amqplib version, if their shape changes or the bytes written here differ
// from what amqplib's own publish writes.
import type { ConfirmChannel } from 'amqplib';
import type { Writable } from 'node:stream';

interface AmqplibChannelInternals {
  readonly ch?: unknown;
  readonly connection?: {
    readonly frameMax?: unknown;
    readonly channels?: ReadonlyArray<{ readonly channel: unknown; readonly buffer: Writable } | null>;
  };
  readonly pushConfirmCallback?: unknown;
}

export interface BatchWriter {
  /** The channel number, for the frames. */
  readonly channel: number;
  /** The connection's negotiated frame size. */
  readonly frameMax: number;
  /** Hands encoded frames to the channel; false: its buffer is full, wait for the channel's 'drain'. */
  write(bytes: Buffer): boolean;
  pushConfirmCallback(cb: (err: unknown) => void): void;
}

/** The writer of an open confirm channel; undefined once the channel is closed (amqplib released its slot). */
export function batchWriterOf(ch: ConfirmChannel): BatchWriter | undefined {
  const internals = ch as unknown as AmqplibChannelInternals;
  const n = internals.ch;
  const connection = internals.connection;
  const push = internals.pushConfirmCallback;
  if (typeof n !== 'number' || typeof connection?.frameMax !== 'number' || !Array.isArray(connection.channels) || typeof push !== 'function') {
    throw new Error('amqplib channel internals changed: re-check src/queues/channel-writer.ts against this amqplib version');
  }
  const slot = connection.channels[n];
  if (!slot || slot.channel !== ch) return undefined;
  const frameMax = connection.frameMax;
  return {
    channel: n,
    frameMax,
    write: (bytes) => slot.buffer.write(bytes),
    pushConfirmCallback: (cb) => (push as (cb: (err: unknown) => void) => void).call(ch, cb),
  };
}
