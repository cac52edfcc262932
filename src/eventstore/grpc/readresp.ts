// Pre-encoded ReadResp messages. Events go out as raw bytes (see
// storage/records.ts); the few control messages are encoded by their type.
import { encode, messageType } from './proto';
import { streamIdentifier } from './wire';

function varintBytes(value: number): Buffer {
  const out: number[] = [];
  let v = value;
  while (v > 0x7f) {
    out.push((v % 128) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return Buffer.from(out);
}

/**
 * ReadResp{event: ReadEvent{event: <recorded>, link: <link>, commit_position:
 * position}}; `link` only for a link event resolved to the event it points at.
 */
export function eventResp(recorded: Buffer, position: bigint, link?: Buffer): Buffer {
  const pos = varintBytes(Number(position));
  const recLen = varintBytes(recorded.length);
  const linkLen = link ? varintBytes(link.length) : undefined;
  const linkSize = link && linkLen ? 1 + linkLen.length + link.length : 0;
  const readEventLen = 1 + recLen.length + recorded.length + linkSize + 1 + pos.length;
  const outerLen = varintBytes(readEventLen);
  const out = Buffer.allocUnsafe(1 + outerLen.length + readEventLen);
  let o = 0;
  out[o++] = (1 << 3) | 2; // ReadResp.event
  o += outerLen.copy(out, o);
  out[o++] = (1 << 3) | 2; // ReadEvent.event
  o += recLen.copy(out, o);
  o += recorded.copy(out, o);
  if (link && linkLen) {
    out[o++] = (2 << 3) | 2; // ReadEvent.link
    o += linkLen.copy(out, o);
    o += link.copy(out, o);
  }
  out[o++] = (3 << 3) | 0; // ReadEvent.commit_position
  pos.copy(out, o);
  return out;
}

/** Every answer of Read goes out as bytes: events wrapped above, control messages encoded by their type. */
export type Outgoing = Buffer;

export function serializeReadResp(m: Outgoing): Buffer {
  return m;
}

const ReadResp = messageType('event_store.client.streams.ReadResp');

export function confirmationResp(subscriptionId: string): Outgoing {
  return encode(ReadResp, { confirmation: { subscriptionId } });
}

export function caughtUpResp(): Outgoing {
  return encode(ReadResp, { caughtUp: {} });
}

export function checkpointResp(position: bigint): Outgoing {
  return encode(ReadResp, { checkpoint: { commitPosition: position.toString(), preparePosition: position.toString() } });
}

export function streamNotFoundResp(stream: string): Outgoing {
  return encode(ReadResp, { streamNotFound: { streamIdentifier: streamIdentifier(stream) } });
}
