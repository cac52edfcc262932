// The relay's batch encoder must put on the wire exactly what amqplib's own
// publish would: compared byte for byte with amqplib's encoder (the same calls
// its Connection#sendMessage makes), so a consumer cannot tell the paths apart.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { encodePublishes, MESSAGE_CONTENT_TYPE, type PublishFrame } from '../../src/queues/frames';

// amqplib's package exports hide lib/: reached by path from its entry point.
const amqplibDir = dirname(require.resolve('amqplib'));
const amqplibVersion = (JSON.parse(readFileSync(join(amqplibDir, 'package.json'), 'utf8')) as { version: string }).version;
/* eslint-disable @typescript-eslint/no-require-imports -- amqplib's encoder modules have no typings */
function amqplibLib(name: string): unknown {
  try {
    return require(join(amqplibDir, 'lib', name));
  } catch (err) {
    throw new Error(`amqplib ${amqplibVersion}: lib/${name} is gone; this test compares src/queues/frames.ts with amqplib's own encoder, re-check both against this version`, { cause: err });
  }
}
const defs = amqplibLib('defs') as {
  BasicPublish: number;
  BasicProperties: number;
  encodeMethod(id: number, channel: number, fields: object): Buffer;
  encodeProperties(id: number, channel: number, size: number, fields: object): Buffer;
};
const args = amqplibLib('api_args') as { publish(exchange: string, routingKey: string, options: object): object };
const frame = amqplibLib('frame') as { makeBodyFrame(channel: number, payload: Buffer): Buffer };
/* eslint-enable @typescript-eslint/no-require-imports */

/** What amqplib writes for one `ConfirmChannel#publish('', queue, body, options)`. */
function amqplibBytes(channel: number, m: PublishFrame, frameMax: number): Buffer {
  const fields = args.publish('', m.queue, { mandatory: true, persistent: m.persistent, messageId: m.messageId, contentType: MESSAGE_CONTENT_TYPE });
  const parts = [defs.encodeMethod(defs.BasicPublish, channel, fields), defs.encodeProperties(defs.BasicProperties, channel, m.body.length, fields)];
  for (let at = 0; at < m.body.length; at += frameMax - 8) parts.push(frame.makeBodyFrame(channel, m.body.subarray(at, at + frameMax - 8)));
  return Buffer.concat(parts);
}

const msg = (i: number, over: Partial<PublishFrame> = {}): PublishFrame => ({
  queue: `tagtrail.items.${i}-5b0c6c1e-2f9e-4a51-9d7e-1f0a0c6e2b7d`,
  body: Buffer.from(JSON.stringify({ epc: `E2801160600002${i}`, toZone: 'SHELF', fromZone: 'DOCK' })),
  messageId: `0b5e8a7c-3d1f-4e2a-8b6c-9f0e1d2c3b4a:${i}`,
  persistent: i % 2 === 0,
  ...over,
});

describe('queues: publish frames of a batch', () => {
  it('equal amqplib encoding, message by message, persistent and not', () => {
    const messages = Array.from({ length: 50 }, (_, i) => msg(i));
    const chunks = encodePublishes(7, messages, 131_072);
    expect(Buffer.concat(chunks.map((c) => c.bytes)).equals(Buffer.concat(messages.map((m) => amqplibBytes(7, m, 131_072))))).to.equal(true);
  });

  it('a body larger than frameMax takes several body frames, as amqplib splits it; an empty body none', () => {
    const big = msg(1, { body: Buffer.alloc(10_000, 'x') });
    const empty = msg(2, { body: Buffer.alloc(0) });
    const exact = msg(3, { body: Buffer.alloc(4096 - 8, 'y') });
    for (const m of [big, empty, exact]) {
      expect(Buffer.concat(encodePublishes(3, [m], 4096).map((c) => c.bytes)).equals(amqplibBytes(3, m, 4096)), `body of ${m.body.length} bytes`).to.equal(true);
    }
  });

  it('multi-byte UTF-8 in queue name and message id is measured in bytes', () => {
    const m = msg(4, { queue: 'tagtrail.ärger.ü', messageId: 'ereignis-ß:1' });
    expect(Buffer.concat(encodePublishes(1, [m], 131_072).map((c) => c.bytes)).equals(amqplibBytes(1, m, 131_072))).to.equal(true);
  });

  it('chunks end at message boundaries near the requested size, and a message larger than a chunk is alone in one', () => {
    const messages = Array.from({ length: 40 }, (_, i) => msg(i, { body: Buffer.alloc(i === 20 ? 5000 : 100, 'z') }));
    const chunks = encodePublishes(1, messages, 131_072, 1000);
    expect(chunks.length).to.be.greaterThan(5);
    // Each chunk is a whole number of messages: re-encoding its messages alone gives the same bytes.
    let i = 0;
    for (const { bytes: c, messages: n } of chunks) {
      let bytes = 0;
      const start = i;
      while (bytes < c.length) bytes += amqplibBytes(1, messages[i++]!, 131_072).length;
      expect(bytes, `chunk starting at message ${start}`).to.equal(c.length);
      expect(i - start, 'message count of the chunk').to.equal(n);
      expect(c.equals(Buffer.concat(messages.slice(start, i).map((m) => amqplibBytes(1, m, 131_072))))).to.equal(true);
    }
    expect(i).to.equal(messages.length);
  });

  it('refuses names longer than a short string and a frameMax without room for a body', () => {
    expect(() => encodePublishes(1, [msg(1, { queue: 'q'.repeat(256) })], 131_072)).to.throw(/queue is longer than 255 bytes/);
    expect(() => encodePublishes(1, [msg(1)], 8)).to.throw(/frameMax 8/);
  });
});
