// npm run bench:protocol — what decoding an append costs the embedded store
// since it reads the protocol from its own .proto files (protobufjs), beside
// the client package's google-protobuf classes decoding the same bytes in the
// same run (what the store used before). One BatchAppend request of 1,000
// JSON events of about 500 bytes, as the client sends it, decoded again and
// again for BENCH_SECONDS (default 3) each way; prints events/s and the ratio.
import { randomUUID } from 'node:crypto';
// eslint-disable-next-line no-restricted-imports -- the client's own classes: the comparison, and the encoder of the request the client would send
import { BatchAppendReq } from '@eventstore/db-client/generated/streams_pb';
// eslint-disable-next-line no-restricted-imports -- as above
import { StreamIdentifier, UUID } from '@eventstore/db-client/generated/shared_pb';
import { StreamsService } from '../src/eventstore/grpc/proto';

const DURATION_MS = Number(process.env['BENCH_SECONDS'] ?? '3') * 1000;
const EVENTS = 1000;
const PAYLOAD = JSON.stringify({ epc: 'E2801160600002084A8E2F5A', antenna: 3, rssi: -52.5, pad: 'x'.repeat(430) });

function request(): Buffer {
  const req = new BatchAppendReq();
  const correlation = new UUID();
  correlation.setString(randomUUID());
  req.setCorrelationId(correlation);
  const options = new BatchAppendReq.Options();
  const id = new StreamIdentifier();
  id.setStreamName(Buffer.from('bench-stream'));
  options.setStreamIdentifier(id);
  req.setOptions(options);
  req.setProposedMessagesList(
    Array.from({ length: EVENTS }, () => {
      const m = new BatchAppendReq.ProposedMessage();
      const u = new UUID();
      u.setString(randomUUID());
      m.setId(u);
      m.getMetadataMap().set('type', 'BenchEvent');
      m.getMetadataMap().set('content-type', 'application/json');
      m.setData(Buffer.from(PAYLOAD));
      return m;
    }),
  );
  req.setIsFinal(true);
  return Buffer.from(req.serializeBinary());
}

function rate(decode: (b: Buffer) => unknown, bytes: Buffer): number {
  let n = 0;
  const t0 = performance.now();
  const end = t0 + DURATION_MS;
  while (performance.now() < end) {
    decode(bytes);
    n++;
  }
  return (n * EVENTS) / ((performance.now() - t0) / 1000);
}

const bytes = request();
const ours = StreamsService['batchAppend']?.requestDeserialize;
if (!ours) throw new Error('no batchAppend in the Streams service definition');
// Warm both up before measuring.
for (let i = 0; i < 50; i++) {
  ours(bytes);
  BatchAppendReq.deserializeBinary(bytes);
}
const protobufjs = rate(ours, bytes);
const googleProtobuf = rate((b) => BatchAppendReq.deserializeBinary(b), bytes);
const f = (x: number): string => Math.round(x).toLocaleString('en-US');
process.stdout.write(
  `BatchAppend request of ${EVENTS} events (${bytes.length} bytes), decoded for ${DURATION_MS / 1000} s each:\n` +
    `  protobufjs (the store's .proto files): ${f(protobufjs)} events/s\n` +
    `  google-protobuf (the client's classes): ${f(googleProtobuf)} events/s\n` +
    `  ratio protobufjs / google-protobuf: ${(protobufjs / googleProtobuf).toFixed(2)}\n` +
    `${JSON.stringify({ events: EVENTS, bytes: bytes.length, protobufjsEventsPerSec: Math.round(protobufjs), googleProtobufEventsPerSec: Math.round(googleProtobuf) })}\n`,
);
