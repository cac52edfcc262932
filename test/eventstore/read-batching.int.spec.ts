// Events a read or subscription writes in one turn leave the embedded server
// together: a catch-up must not cost a socket write (and on the client a
// read) per event. Seen from a plain HTTP/2 client, which gets the DATA
// frames as the server sent them: many ReadResp messages per frame.
import { expect } from 'chai';
import { connect } from 'node:http2';
import { jsonEvent } from '@eventstore/db-client';
import { encode, messageType } from '../../src/eventstore/grpc/proto';
import { uniqueStream, withEventStore } from '../support/eventstore';

const EVENTS = 2_000;

/** One gRPC message: compression flag, big-endian length, body. */
function frame(body: Buffer): Buffer {
  const out = Buffer.alloc(5 + body.length);
  out.writeUInt32BE(body.length, 1);
  body.copy(out, 5);
  return out;
}

describe('event store: read answers batched into frames', function () {
  this.timeout(120_000);
  const fx = withEventStore();

  it('sends a catch-up of 2,000 events in far fewer DATA frames than events, every event once and whole', async function () {
    if (!fx.store.embedded) this.skip();
    const stream = uniqueStream('batching');
    for (let b = 0; b < EVENTS / 1000; b++) {
      await fx.client.appendToStream(stream, Array.from({ length: 1000 }, (_, i) => jsonEvent({ type: 'Batched', data: { n: b * 1000 + i, pad: 'p'.repeat(400) } })));
    }
    const port = Number(new URL(fx.store.connectionString.replace(/^esdb:/, 'http:')).port);
    const req = encode(messageType('event_store.client.streams.ReadReq'), {
      options: { stream: { streamIdentifier: { streamName: Buffer.from(stream) }, start: {} }, readDirection: 0, count: String(EVENTS), noFilter: {}, uuidOption: { string: {} } },
    });
    const session = connect(`http://127.0.0.1:${port}`);
    try {
      const call = session.request({ ':method': 'POST', ':path': '/event_store.client.streams.Streams/Read', 'content-type': 'application/grpc', te: 'trailers' });
      call.end(frame(req));
      let frames = 0;
      let pending = Buffer.alloc(0);
      const messages: Buffer[] = [];
      call.on('data', (chunk: Buffer) => {
        frames++;
        pending = Buffer.concat([pending, chunk]);
        while (pending.length >= 5 && pending.length >= 5 + pending.readUInt32BE(1)) {
          const len = pending.readUInt32BE(1);
          messages.push(pending.subarray(5, 5 + len));
          pending = pending.subarray(5 + len);
        }
      });
      await new Promise<void>((resolve, reject) => {
        call.on('end', resolve);
        call.on('error', reject);
      });
      const ReadResp = messageType('event_store.client.streams.ReadResp');
      const numbers = messages.map((m) => (JSON.parse(Buffer.from((ReadResp.decode(m) as unknown as { event: { event: { data: Uint8Array } } }).event.event.data).toString()) as { n: number }).n);
      expect(numbers).to.deep.equal(Array.from({ length: EVENTS }, (_, i) => i));
      expect(pending.length).to.equal(0);
      // One message per frame was the behaviour before; a frame holds up to 16 KiB, some twenty events.
      expect(frames).to.be.below(EVENTS / 4);
    } finally {
      session.close();
    }
  });
});
