// The relay's publisher against the machine's RabbitMQ: batches encoded by
// src/queues/frames.ts and written into amqplib's channel
// (src/queues/channel-writer.ts) arrive complete, in order, with the
// properties consumers rely on; the broker's confirms settle them; a queue the
// broker no longer has is declared again and its messages sent again (the
// amqplib internals the writer depends on: channel-writer.int.spec.ts).
import type * as amqp from 'amqplib';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { ConfirmPublisher, OutMessage } from '../../src/queues/publisher';
import { smallFramePublisher, type PublisherFixture } from './support';
import { sleep } from '../support/wait';

interface Got {
  readonly body: string;
  readonly props: amqp.MessageProperties;
}

describe('queues publisher: batched frames on a real broker', function () {
  this.timeout(60_000);
  let fixture: PublisherFixture | undefined;
  let plain: amqp.ChannelModel | undefined;
  let pub: ConfirmPublisher | undefined;
  const queues = [0, 1, 2].map((i) => `tagtrail.test.publisher.${i}.${randomUUID()}`);

  before(async () => {
    fixture = await smallFramePublisher('publisher');
    ({ pub, plain } = fixture);
  });
  after(async () => {
    await fixture?.close(queues);
  });

  async function drain(queue: string, n: number): Promise<Got[]> {
    const ch = await plain!.createChannel();
    const got: Got[] = [];
    const deadline = Date.now() + 20_000;
    while (got.length < n) {
      const m = await ch.get(queue, { noAck: true });
      if (m) got.push({ body: m.content.toString('utf8'), props: m.properties });
      else if (Date.now() > deadline) throw new Error(`${queue}: ${got.length} of ${n}`);
      else await sleep(20);
    }
    expect(await ch.get(queue, { noAck: true }), `${queue}: nothing beyond the ${n} messages`).to.equal(false);
    await ch.close();
    return got;
  }

  it('5,000 messages over 3 queues arrive in order with messageId, delivery mode, content type; large bodies split and joined', async () => {
    await pub!.declare(queues);
    const messages: OutMessage[] = Array.from({ length: 5000 }, (_, i) => ({
      queue: queues[i % 3]!,
      // Every 500th body is larger than frameMax (4096).
      body: Buffer.from(JSON.stringify({ i, pad: i % 500 === 0 ? 'p'.repeat(10_000) : 'é' })),
      messageId: `event-${Math.floor(i / 100)}:${i % 100}`,
      persistent: i % 7 !== 0,
    }));
    const { confirmed } = await pub!.send(messages);
    await confirmed;
    for (const [qi, q] of queues.entries()) {
      const expected = messages.filter((m) => m.queue === q);
      const got = await drain(q, expected.length);
      expect(got.map((g) => g.body), `bodies of queue ${qi}, in order`).to.deep.equal(expected.map((m) => m.body.toString('utf8')));
      expect(got.map((g) => g.props.messageId)).to.deep.equal(expected.map((m) => m.messageId));
      expect(got.map((g) => g.props.deliveryMode)).to.deep.equal(expected.map((m) => (m.persistent ? 2 : 1)));
      expect(new Set(got.map((g) => g.props.contentType))).to.deep.equal(new Set(['application/json; charset=utf-8']));
    }
  });

  it('a queue deleted on the broker is declared again and its returned messages sent again', async () => {
    const ch = await plain!.createChannel();
    await ch.deleteQueue(queues[1]!);
    await ch.close();
    const messages: OutMessage[] = Array.from({ length: 30 }, (_, i) => ({ queue: queues[i % 2]!, body: Buffer.from(`{"n":${i}}`), messageId: `again:${i}`, persistent: true }));
    await (await pub!.send(messages)).confirmed;
    expect((await drain(queues[1]!, 15)).map((g) => g.props.messageId)).to.deep.equal(messages.filter((m) => m.queue === queues[1]).map((m) => m.messageId));
    expect((await drain(queues[0]!, 15)).map((g) => g.props.messageId)).to.deep.equal(messages.filter((m) => m.queue === queues[0]).map((m) => m.messageId));
  });
});
