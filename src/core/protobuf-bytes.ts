// @eventstore/db-client hands an event's JSON to its google-protobuf append
// message as a base64 string; google-protobuf turns it back into bytes with
// its own JavaScript base64 decoder every time the message is serialised,
// which the client does twice per append (once to size its batch, once to
// send). For tag reports that was the largest single cost of the service
// (docs/benchmarks.md, "Pipeline"). A protobuf `bytes` field takes a base64
// string or the bytes themselves and serialises both the same way, so the
// setters below decode base64 once, with Node's native decoder, and store
// the bytes: what goes on the wire is unchanged. Loaded (for its effect) by
// src/core/eventstore.ts, which every appending module imports.
import { AppendReq, BatchAppendReq } from '@eventstore/db-client/generated/streams_pb';

type BytesSetter<M> = (this: M, value: Uint8Array | string) => M;

function decodeBase64Once<M>(proto: { setData: BytesSetter<M>; setCustomMetadata: BytesSetter<M> }): void {
  for (const name of ['setData', 'setCustomMetadata'] as const) {
    const original = proto[name];
    // Idempotent: a second load (tests, tsx re-registering) must not wrap twice.
    if ((original as { base64Decoded?: true }).base64Decoded) continue;
    const wrapped: BytesSetter<M> = function (this: M, value) {
      return original.call(this, typeof value === 'string' ? Buffer.from(value, 'base64') : value);
    };
    (wrapped as { base64Decoded?: true }).base64Decoded = true;
    proto[name] = wrapped;
  }
}

decodeBase64Once(BatchAppendReq.ProposedMessage.prototype);
decodeBase64Once(AppendReq.ProposedMessage.prototype);
