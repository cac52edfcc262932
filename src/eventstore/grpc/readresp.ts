// Pre-encoded ReadResp messages. Events go out as raw bytes (see
// storage/records.ts); the few control messages use the generated classes.
import { streamsPb } from './proto';
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

/** ReadResp{event: ReadEvent{event: <recorded>, commit_position: position}} */
export function eventResp(recorded: Buffer, position: bigint): Buffer {
  const pos = varintBytes(Number(position));
  const recLen = varintBytes(recorded.length);
  const readEventLen = 1 + recLen.length + recorded.length + 1 + pos.length;
  const outerLen = varintBytes(readEventLen);
  const out = Buffer.allocUnsafe(1 + outerLen.length + readEventLen);
  let o = 0;
  out[o++] = (1 << 3) | 2; // ReadResp.event
  o += outerLen.copy(out, o);
  out[o++] = (1 << 3) | 2; // ReadEvent.event
  o += recLen.copy(out, o);
  o += recorded.copy(out, o);
  out[o++] = (3 << 3) | 0; // ReadEvent.commit_position
  pos.copy(out, o);
  return out;
}

export type Outgoing = Buffer | InstanceType<typeof streamsPb.ReadResp>;

export function serializeReadResp(m: Outgoing): Buffer {
  return Buffer.isBuffer(m) ? m : Buffer.from(m.serializeBinary());
}

export function confirmationResp(subscriptionId: string): Outgoing {
  const c = new streamsPb.ReadResp.SubscriptionConfirmation();
  c.setSubscriptionId(subscriptionId);
  return new streamsPb.ReadResp().setConfirmation(c);
}

export function caughtUpResp(): Outgoing {
  return new streamsPb.ReadResp().setCaughtUp(new streamsPb.ReadResp.CaughtUp());
}

export function checkpointResp(position: bigint): Outgoing {
  const c = new streamsPb.ReadResp.Checkpoint();
  c.setCommitPosition(position.toString());
  c.setPreparePosition(position.toString());
  return new streamsPb.ReadResp().setCheckpoint(c);
}

export function streamNotFoundResp(stream: string): Outgoing {
  const nf = new streamsPb.ReadResp.StreamNotFound();
  nf.setStreamIdentifier(streamIdentifier(stream));
  return new streamsPb.ReadResp().setStreamNotFound(nf);
}
