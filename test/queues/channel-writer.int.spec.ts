// src/queues/channel-writer.ts writes the relay's frames (src/queues/frames.ts)
// into amqplib's channel buffer and its confirm bookkeeping, both amqplib
// internals. What it relies on, checked against the machine's RabbitMQ so
// that an amqplib upgrade fails here, naming the package and version,
// instead of changing what the broker receives:
// - the installed amqplib is the version package.json pins exactly;
// - the internals exist with the expected shape (channel number, frameMax,
//   the connection's channel slots with their buffer, pushConfirmCallback);
// - the batch path puts on the channel exactly the bytes amqplib's own
//   ConfirmChannel#publish puts there for the same message, and the broker
//   confirms both.
import * as amqp from 'amqplib';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { expect } from 'chai';
import { batchWriterOf } from '../../src/queues/channel-writer';
import { encodePublishes, MESSAGE_CONTENT_TYPE, type PublishFrame } from '../../src/queues/frames';
import { AMQP_URL } from './support';

const amqplibVersion = (JSON.parse(readFileSync(join(dirname(require.resolve('amqplib')), 'package.json'), 'utf8')) as { version: string }).version;
const pinned = (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies.amqplib;
const upgrade = (what: string): string => `amqplib ${amqplibVersion}: ${what}; src/queues/channel-writer.ts relies on it, re-check it against this version`;

/** The channel's buffer, as channel-writer.ts reaches it. */
function channelBuffer(ch: amqp.ConfirmChannel): Writable {
  const internals = ch as unknown as { ch?: unknown; connection?: { channels?: Array<{ buffer?: Writable } | null> } };
  const slot = typeof internals.ch === 'number' ? internals.connection?.channels?.[internals.ch] : undefined;
  expect(typeof slot?.buffer?.write, upgrade('a confirm channel has no connection.channels[ch].buffer')).to.equal('function');
  return slot!.buffer!;
}

/** The bytes `send` writes into the channel's buffer (they still go to the broker). */
function captured(buffer: Writable, send: () => void): Buffer {
  const parts: Buffer[] = [];
  const write = buffer.write;
  buffer.write = function (this: Writable, chunk: unknown, ...rest: unknown[]) {
    parts.push(Buffer.from(chunk as Buffer));
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
  } as Writable['write'];
  try {
    send();
  } finally {
    buffer.write = write;
  }
  return Buffer.concat(parts);
}

describe('amqplib internals of the relay\'s batch writer (src/queues/channel-writer.ts)', function () {
  this.timeout(30_000);
  let conn: amqp.ChannelModel | undefined;
  const queue = `tagtrail.test.channel-writer.${randomUUID()}`;

  before(async () => {
    // A small frameMax, so a body above it goes as several body frames.
    conn = await amqp.connect(`${AMQP_URL}${AMQP_URL.includes('?') ? '&' : '?'}frameMax=4096`);
  });
  after(async () => {
    const ch = await conn?.createChannel();
    await ch?.deleteQueue(queue).catch(() => undefined);
    await conn?.close().catch(() => undefined);
  });

  it('the installed amqplib is the version package.json pins exactly', () => {
    expect(pinned, 'amqplib must be pinned to an exact version in package.json').to.match(/^\d+\.\d+\.\d+$/);
    expect(amqplibVersion, upgrade(`installed, package.json pins ${pinned}`)).to.equal(pinned);
  });

  it('amqplib still has the internals the writer uses; a closed channel has no writer', async () => {
    const ch = await conn!.createConfirmChannel();
    const writer = batchWriterOf(ch);
    expect(writer, upgrade('no writer for an open confirm channel')).to.not.equal(undefined);
    expect(writer!.frameMax, upgrade('frameMax is not the negotiated one')).to.equal(4096);
    expect(writer!.channel, upgrade('the channel number is not the channel\'s')).to.equal((ch as unknown as { ch: number }).ch);
    await ch.close();
    expect(batchWriterOf(ch), upgrade('a closed channel still has a writer')).to.equal(undefined);
  });

  it('writes the same bytes as ConfirmChannel#publish for the same messages, and the broker confirms both', async () => {
    const ch = await conn!.createConfirmChannel();
    await ch.assertQueue(queue, { durable: false });
    const writer = batchWriterOf(ch)!;
    const buffer = channelBuffer(ch);
    const samples: PublishFrame[] = [
      { queue, body: Buffer.from(JSON.stringify({ epc: '3034257BF7194E4000001A85', toZone: 'SHELF', note: 'é 漢' })), messageId: `${randomUUID()}:0`, persistent: true },
      { queue, body: Buffer.from(JSON.stringify({ pad: 'p'.repeat(10_000) })), messageId: `${randomUUID()}:1`, persistent: false },
    ];
    const confirms: Array<Promise<void>> = [];
    const confirm = (): ((err: unknown) => void) => {
      let settle: (err: unknown) => void = () => undefined;
      confirms.push(new Promise<void>((resolve, reject) => (settle = (err) => (err ? reject(err as Error) : resolve()))));
      return settle;
    };
    for (const m of samples) {
      const library = captured(buffer, () => ch.publish('', m.queue, m.body, { mandatory: true, persistent: m.persistent, messageId: m.messageId, contentType: MESSAGE_CONTENT_TYPE }, confirm()));
      const batch = captured(buffer, () => {
        for (const chunk of encodePublishes(writer.channel, [m], writer.frameMax)) {
          writer.write(chunk.bytes);
          for (let i = 0; i < chunk.messages; i++) writer.pushConfirmCallback(confirm());
        }
      });
      expect(library.length, upgrade('ConfirmChannel#publish wrote nothing into the channel buffer')).to.be.greaterThan(0);
      expect(batch.equals(library), upgrade(`the batch path wrote other bytes than ConfirmChannel#publish (${batch.length} vs ${library.length})`)).to.equal(true);
    }
    await Promise.all(confirms);
    const got: string[] = [];
    for (let m = await ch.get(queue, { noAck: true }); m !== false; m = await ch.get(queue, { noAck: true })) got.push(m.properties.messageId as string);
    expect(got).to.deep.equal(samples.flatMap((m) => [m.messageId, m.messageId]));
    await ch.close();
  });
});
