// The relay's confirm window bounds what waits for confirms, also inside one
// large batch (events that queued up, many queues): with the broker's confirms held
// back by a proxy (the relay's frames still reach the broker), the relay stops
// publishing near its window instead of sending the whole backlog; once the
// confirms flow again, every message arrives. Embedded event store, real Redis
// and RabbitMQ (the queues are counted and consumed on the broker itself).
import * as amqp from 'amqplib';
import { expect } from 'chai';
import { loadConfigOrThrow } from '../../src/config';
import { appendEvents } from '../../src/core/eventstore';
import { encodeEvent } from '../../src/core/events';
import { connectRedis, type RedisClient } from '../../src/core/redis/connect';
import { RedisKeys } from '../../src/core/redis/keys';
import { ENGINE_STREAM, itemEvents } from '../../src/engine/events';
import { startRelay, type RunningRelay } from '../../src/queues/relay';
import { freePort } from '../../bench/support/ports';
import { withEventStore, testLogger } from '../support/eventstore';
import { createLogger } from '../../src/core/logger';
import { AMQP_URL, change, consume } from './support';
import { configureItemQueue, dropKeysAndQuit } from './relay-fixture';
import { brokerProxy, urlOnPort, type BrokerProxy } from './broker-proxy';
import { sleep } from '../support/wait';

const EPC_PREFIX = 'E2800000E7';
const QUEUES = 3;
const EVENTS = 60;
const CHANGES_PER_EVENT = 10;
const TOTAL = EVENTS * CHANGES_PER_EVENT * QUEUES; // 1800
const WINDOW = { batches: 64, messages: 300, flushEvery: 60 };

describe('relay confirm window: bounded while the broker does not confirm', function () {
  this.timeout(60_000);
  const es = withEventStore();
  const keys = new RedisKeys(`tagtrail-test-${crypto.randomUUID()}:`);
  let redis: RedisClient | undefined;
  let relay: RunningRelay | undefined;
  let proxy: BrokerProxy | undefined;
  let plain: amqp.ChannelModel | undefined;
  const queues: string[] = [];

  before(async () => {
    redis = await connectRedis(loadConfigOrThrow({}).redisUrl, testLogger('redis'), 5000);
    plain = await amqp.connect(AMQP_URL);
    for (let i = 0; i < QUEUES; i++) queues.push((await configureItemQueue(es.client, EPC_PREFIX)).queue);
  });

  after(async () => {
    await relay?.stop();
    await proxy?.close();
    const ch = await plain?.createChannel();
    for (const q of queues) await ch?.deleteQueue(q).catch(() => undefined);
    await plain?.close().catch(() => undefined);
    await dropKeysAndQuit(redis, keys);
  });

  const onBroker = async (): Promise<number> => {
    const ch = await plain!.createChannel();
    let n = 0;
    for (const q of queues) n += (await ch.checkQueue(q)).messageCount;
    await ch.close();
    return n;
  };

  const itemsChanged = (round: number) =>
    Array.from({ length: EVENTS }, (_, e) =>
      encodeEvent(itemEvents, {
        type: 'ItemsChanged',
        data: { inputPosition: '0', at: Date.now(), changes: Array.from({ length: CHANGES_PER_EVENT }, (_, c) => change({ epc: `${EPC_PREFIX}${round}${String(e * 100 + c).padStart(13, '0')}` })) },
      }),
    );

  /** What the broker holds once the count has grown past `above` and then stopped growing (a busy machine may be slow to start). */
  const settledCount = async (above = 0): Promise<number> => {
    const deadline = Date.now() + 15_000;
    let published = -1;
    for (let stable = 0; stable < 3 && Date.now() < deadline; ) {
      await sleep(300);
      const n = await onBroker();
      stable = n === published && n > above ? stable + 1 : 0;
      published = n;
    }
    return published;
  };

  /** Lets the confirms through; every message must then arrive, each once. */
  const releaseAndReceiveAll = async (): Promise<void> => {
    proxy!.release();
    const deadline = Date.now() + 30_000;
    while ((await onBroker()) < TOTAL) {
      if (Date.now() > deadline) throw new Error(`${await onBroker()} of ${TOTAL} on the broker`);
      await sleep(200);
    }
    for (const q of queues) {
      const c = await consume(q);
      const got = await c.until(EVENTS * CHANGES_PER_EVENT);
      await c.close();
      expect(new Set(got.map((m) => m.messageId)).size, `${q}: distinct messages`).to.equal(EVENTS * CHANGES_PER_EVENT);
    }
    const ch = await plain!.createChannel();
    for (const q of queues) await ch.purgeQueue(q);
    await ch.close();
  };

  it('live: events one by one stop at the window of batches in flight until confirms come', async () => {
    const port = await freePort();
    proxy = await brokerProxy(port, true);
    relay = startRelay({ client: es.client, redis: redis!, keys, logger: createLogger('relay'), brokerUrl: urlOnPort(port), window: WINDOW });
    await relay.started;
    proxy.hold();
    await appendEvents(es.client, ENGINE_STREAM, itemsChanged(1), 'any');
    const published = await settledCount();
    expect(published, 'published before any confirm').to.be.greaterThan(0);
    // One window of batches in flight, plus the batch that filled it: far below the 1,800.
    expect(published, 'published while no confirm came').to.be.at.most(WINDOW.messages + WINDOW.flushEvery);
    await releaseAndReceiveAll();
  });

  it('a large batch (the events that queued up behind a full window) stops near the window until its own slices are confirmed', async () => {
    proxy!.hold();
    await appendEvents(es.client, ENGINE_STREAM, itemsChanged(2), 'any');
    const first = await settledCount();
    expect(first, 'the first window').to.be.at.most(WINDOW.messages + WINDOW.flushEvery);
    // The confirms of the first window go through, later ones are held again: the relay's next handler call gets every
    // event that queued up meanwhile (about 1,500 messages) at once, with nothing else in flight.
    proxy!.release();
    proxy!.hold();
    const published = await settledCount(first);
    expect(published - first, 'published by the large batch while no confirm came').to.be.greaterThan(0);
    expect(published - first, 'published by the large batch while no confirm came').to.be.at.most(WINDOW.messages + WINDOW.flushEvery);
    await releaseAndReceiveAll();
  });
});
