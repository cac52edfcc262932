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
// The one import of the client's internals in product code: the patch is of
// those very classes; test/core/protobuf-bytes.unit.spec.ts fails when they change.
// eslint-disable-next-line no-restricted-imports -- patches the client's own message classes (see above)
import { AppendReq, BatchAppendReq } from '@eventstore/db-client/generated/streams_pb';

type BytesSetter<M> = (this: M, value: Uint8Array | string) => M;
type Patched<M> = BytesSetter<M> & { readonly unpatched?: BytesSetter<M> };

/** The setters patched here, by message: test/core/protobuf-bytes.unit.spec.ts checks each against the library's own. */
export const PATCHED_MESSAGES = { 'BatchAppendReq.ProposedMessage': BatchAppendReq.ProposedMessage, 'AppendReq.ProposedMessage': AppendReq.ProposedMessage } as const;
export const PATCHED_SETTERS = ['setData', 'setCustomMetadata'] as const;

/** The library's own setter behind a patched one (undefined: not patched). */
export function unpatchedSetter<M>(setter: BytesSetter<M>): BytesSetter<M> | undefined {
  return (setter as Patched<M>).unpatched;
}

function decodeBase64Once<M>(proto: { setData: BytesSetter<M>; setCustomMetadata: BytesSetter<M> }): void {
  for (const name of PATCHED_SETTERS) {
    const original = proto[name];
    // Idempotent: a second load (tests, tsx re-registering) must not wrap twice.
    if (unpatchedSetter(original) !== undefined) continue;
    const wrapped: BytesSetter<M> = function (this: M, value) {
      return original.call(this, typeof value === 'string' ? Buffer.from(value, 'base64') : value);
    };
    proto[name] = Object.assign(wrapped, { unpatched: original });
  }
}

for (const message of Object.values(PATCHED_MESSAGES)) decodeBase64Once(message.prototype);
