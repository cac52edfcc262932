// Backpressure: a consumer that does not read its queue cannot slow down or
// block other queues or the rest of the system. Two queues with the same
// filter receive the same stream of item changes; queue A's consumer takes a
// few messages (prefetch) and never acknowledges them, queue B's consumer
// reads normally. B must receive every message while A accumulates them
// (ready count, passive declare), and the HTTP API keeps answering (reads
// and a new queue configuration) meanwhile. In-process app, the machine's
// RabbitMQ; no timed assertions, only deadlines.
import * as amqp from 'amqplib';
import { EventStoreDBClient } from '@eventstore/db-client';
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app';
import { QUEUE_ARGUMENTS } from '../../src/queues/model';
import { AMQP_URL, appendChanges, change, consume, type Consumer } from './support';
import { sleep } from '../support/wait';

const ROLES_NO_ENGINE = 'api,eventstore,projections,relay,jobs';
const EVENTS = 100;
const CHANGES_PER_EVENT = 20;
const PREFETCH = 5;

describe('queues backpressure: a queue nobody reads does not hold up the others', function () {
  this.timeout(180_000);
  let app: TestApp | undefined;
  let client: EventStoreDBClient | undefined;
  let stuck: amqp.ChannelModel | undefined;
  const consumers: Consumer[] = [];
  /** Deleted at the end, so the shared broker does not keep queue A's messages for an hour. */
  const queues: string[] = [];

  before(async () => {
    app = await startTestApp({ ROLES: ROLES_NO_ENGINE });
    client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
  });
  after(async () => {
    await stuck?.close().catch(() => undefined);
    for (const c of consumers) await c.close();
    if (queues.length > 0) {
      const conn = await amqp.connect(AMQP_URL);
      const ch = await conn.createChannel();
      for (const q of queues) await ch.deleteQueue(q).catch(() => undefined);
      await conn.close().catch(() => undefined);
    }
    await client?.dispose().catch(() => undefined);
    await app?.stop();
  });

  const configure = async (body: unknown): Promise<string> => {
    const res = await app!.request('PUT', '/data/v1/items/queues', { body });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const queue = (res.body as { queue: string }).queue;
    queues.push(queue);
    return queue;
  };

  it('queue B receives every message while queue A (consumer never acks) accumulates; the API keeps answering', async () => {
    const filter = { epc: 'E2800000BB' };
    const queueA = await configure(filter);
    const queueB = await configure(filter);

    // A: a client that takes PREFETCH messages and never acknowledges (nor reads on).
    stuck = await amqp.connect(AMQP_URL);
    const chA = await stuck.createChannel();
    await chA.assertQueue(queueA, { durable: true, arguments: { ...QUEUE_ARGUMENTS } });
    await chA.prefetch(PREFETCH);
    let takenByA = 0;
    await chA.consume(queueA, (msg) => {
      if (msg) takenByA++;
    });
    const b = await consume(queueB);
    consumers.push(b);

    const expected = new Set<string>();
    for (let i = 0; i < EVENTS; i++) {
      const changes = Array.from({ length: CHANGES_PER_EVENT }, (_, k) => change({ epc: `E2800000BB${String(i * CHANGES_PER_EVENT + k).padStart(14, '0')}` }));
      const id = await appendChanges(client!, changes);
      changes.forEach((_, k) => expected.add(`${id}:${k}`));
      if (i === EVENTS / 2) {
        // The rest of the system meanwhile: reads and a configuration (which declares on the broker) answer.
        expect((await app!.request('GET', '/configuration/v1/readerConfigurations/show')).status).to.equal(200);
        await configure({ epc: 'E2800000CC' });
      }
    }

    const deadline = Date.now() + 90_000;
    for (;;) {
      const missing = [...expected].filter((id) => !b.ids().has(id));
      if (missing.length === 0) break;
      if (Date.now() > deadline) throw new Error(`queue B: ${missing.length} of ${expected.size} messages never arrived`);
      await sleep(200);
    }
    expect(b.ids().size).to.equal(EVENTS * CHANGES_PER_EVENT);

    // A holds everything it was sent: PREFETCH unacknowledged at its consumer, the rest ready in the queue.
    const probe = await amqp.connect(AMQP_URL);
    try {
      const ch = await probe.createChannel();
      let ready = 0;
      const aDeadline = Date.now() + 60_000;
      while ((ready = (await ch.checkQueue(queueA)).messageCount) < expected.size - PREFETCH || takenByA < PREFETCH) {
        if (Date.now() > aDeadline) throw new Error(`queue A holds only ${ready} ready messages, its consumer took ${takenByA}`);
        await sleep(200);
      }
      expect(ready, "duplicates (a retried batch) may add to it").to.be.at.least(expected.size - PREFETCH);
      expect(takenByA).to.equal(PREFETCH);
    } finally {
      await probe.close().catch(() => undefined);
    }
    expect((await app!.request('GET', '/configuration/v1/readerConfigurations/show')).status).to.equal(200);
  });
});
