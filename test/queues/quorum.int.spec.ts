// AMQP_QUEUE_TYPE=quorum against the machine's RabbitMQ (random queue names):
// the service's declarer and the relay's publisher declare quorum queues,
// messages published with confirms reach a client that declares the queue
// with the same arguments; what changes for clients (docs/scaling.md,
// "Quorum queues"): a declare without x-queue-type, an exclusive or an
// auto-delete declare of that name is refused by the broker.
import * as amqp from 'amqplib';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { connectAmqp, type AmqpConnection } from '../../src/core/amqp/connect';
import { QueueDeclarer } from '../../src/queues/declarer';
import { queueArguments, QUEUE_ARGUMENTS } from '../../src/queues/model';
import { ConfirmPublisher } from '../../src/queues/publisher';
import { silent } from '../support/logger';
import { AMQP_URL } from './support';
import { waitForValue } from '../support/wait';

/** The broker's refusal of a declare (the channel closes with it), or undefined when it was accepted. */
async function declareRefusal(conn: amqp.ChannelModel, queue: string, options: amqp.Options.AssertQueue): Promise<string | undefined> {
  const ch = await conn.createChannel();
  ch.on('error', () => undefined);
  try {
    await ch.assertQueue(queue, options);
    await ch.close();
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

describe('quorum queues (AMQP_QUEUE_TYPE=quorum, real broker)', function () {
  this.timeout(60_000);
  const byDeclarer = `tagtrail.test.quorum.declarer.${randomUUID()}`;
  const byPublisher = `tagtrail.test.quorum.publisher.${randomUUID()}`;
  let conn: AmqpConnection | undefined;
  let pub: ConfirmPublisher | undefined;
  let declarer: QueueDeclarer | undefined;
  let client: amqp.ChannelModel | undefined;

  before(async () => {
    conn = await connectAmqp(AMQP_URL, silent, 10_000, 'tagtrail[test] quorum');
    pub = new ConfirmPublisher(conn.model, silent, { confirmTimeoutMs: 20_000, queueType: 'quorum' });
    declarer = new QueueDeclarer(AMQP_URL, silent, 'quorum');
    client = await amqp.connect(AMQP_URL);
  });
  after(async () => {
    const ch = await client?.createChannel();
    for (const q of [byDeclarer, byPublisher]) await ch?.deleteQueue(q).catch(() => undefined);
    await client?.close().catch(() => undefined);
    await declarer?.stop();
    await pub?.stop();
    await conn?.close();
  });

  it('declares quorum queues that take persistent messages with confirms and deliver them to a client', async () => {
    await declarer!.declare(byDeclarer);
    await pub!.declare([byPublisher]);
    const messages = [byDeclarer, byPublisher].flatMap((queue) =>
      [1, 2, 3].map((n) => ({ queue, body: Buffer.from(JSON.stringify({ n })), messageId: `${randomUUID()}:${n}`, persistent: true })),
    );
    const { confirmed } = await pub!.send(messages);
    await confirmed;
    // A client consumes as before, declaring the queue with the arguments it now has.
    const ch = await client!.createChannel();
    for (const queue of [byDeclarer, byPublisher]) {
      await ch.assertQueue(queue, { durable: true, arguments: queueArguments('quorum') });
      const got: number[] = [];
      await waitForValue(`3 messages in ${queue}`, async () => {
        const m = await ch.get(queue, { noAck: true });
        if (m) got.push((JSON.parse(m.content.toString('utf8')) as { n: number }).n);
        return got;
      }, (g) => g.length === 3, { intervalMs: 20 });
      expect(got).to.deep.equal([1, 2, 3]);
    }
    await ch.close();
  });

  it('is a quorum queue: the classic arguments, exclusive and auto-delete declares of it are refused', async () => {
    expect(queueArguments('quorum')).to.deep.equal({ ...QUEUE_ARGUMENTS, 'x-queue-type': 'quorum' });
    expect(queueArguments('classic')).to.deep.equal({ ...QUEUE_ARGUMENTS });
    const classic = await declareRefusal(client!, byDeclarer, { durable: true, arguments: queueArguments('classic') });
    expect(classic).to.match(/PRECONDITION_FAILED.*x-queue-type/);
    const exclusive = await declareRefusal(client!, byDeclarer, { durable: true, exclusive: true, arguments: queueArguments('quorum') });
    expect(exclusive).to.match(/RESOURCE_LOCKED|PRECONDITION_FAILED/);
    const autoDelete = await declareRefusal(client!, byDeclarer, { durable: true, autoDelete: true, arguments: queueArguments('quorum') });
    expect(autoDelete).to.match(/PRECONDITION_FAILED/);
    // The same arguments as the service: accepted (a no-op).
    expect(await declareRefusal(client!, byDeclarer, { durable: true, arguments: queueArguments('quorum') })).to.equal(undefined);
  });
});
