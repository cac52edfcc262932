// Pre-encoded ReadResp messages. Events go out as raw bytes (see
// storage/records.ts); the few control messages are encoded by their type.
import { encode, messageType } from './proto';
import { bigVarintSize, lenFieldSize, ProtoBuffer } from '../storage/protowriter';
import { streamIdentifier } from './wire';

/**
 * ReadResp{event: ReadEvent{event: <recorded>, link: <link>, commit_position:
 * position}}; `link` only for a link event resolved to the event it points at.
 * Sized first and written into one buffer: this runs once per event sent.
 */
export function eventResp(recorded: Buffer, position: bigint, link?: Buffer): Buffer {
  const readEventLen = lenFieldSize(1, recorded.length) + (link ? lenFieldSize(2, link.length) : 0) + 1 + bigVarintSize(position);
  const w = new ProtoBuffer(Buffer.allocUnsafe(lenFieldSize(1, readEventLen)));
  w.lenHeader(1, readEventLen); // ReadResp.event
  w.bytes(1, recorded); // ReadEvent.event
  if (link) w.bytes(2, link); // ReadEvent.link
  w.uint64(3, position); // ReadEvent.commit_position
  return w.buf;
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
