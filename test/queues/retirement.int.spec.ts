// Idle queue retirement (docs/queues.md, "Idle queues are retired"): a queue
// nobody consumes is retired after the idle time (QueueRetired on its stream,
// the broker queue deleted, no message and no redeclaration after, also after
// a relay restart), while a consumed queue keeps receiving. Embedded event
// store, real Redis and RabbitMQ; the relay runs in-process with short times.
import * as amqp from 'amqplib';
import { expect } from 'chai';
import { loadConfigOrThrow } from '../../src/config';
import { readStream } from '../../src/core/eventstore';
import { createLogger } from '../../src/core/logger';
import { connectRedis, type RedisClient } from '../../src/core/redis/connect';
import { RedisKeys } from '../../src/core/redis/keys';
import { queueEvents } from '../../src/queues/events';
import { queueStream } from '../../src/queues/model';
import { startRelay, type RunningRelay } from '../../src/queues/relay';
import { withEventStore, testLogger } from '../support/eventstore';
import { AMQP_URL, appendChanges, change, consume, type Consumer } from './support';
import { configureItemQueue, dropKeysAndQuit } from './relay-fixture';
import { sleep } from '../support/wait';

const EPC_PREFIX = 'E2800000F3';
const RETIREMENT = { idleMs: 1500, checkEveryMs: 250 };

describe('relay: idle queues are retired', function () {
  this.timeout(60_000);
  const es = withEventStore();
  const keys = new RedisKeys(`tagtrail-test-${crypto.randomUUID()}:`);
  let redis: RedisClient | undefined;
  let plain: amqp.ChannelModel | undefined;
  const relays: RunningRelay[] = [];
  const consumers: Consumer[] = [];
  const ids = { used: '', idle: '' };
  let used = '';
  let idle = '';

  before(async () => {
    redis = await connectRedis(loadConfigOrThrow({}).redisUrl, testLogger('redis'), 5000);
    plain = await amqp.connect(AMQP_URL);
    ({ queue: used, id: ids.used } = await configureItemQueue(es.client, EPC_PREFIX));
    ({ queue: idle, id: ids.idle } = await configureItemQueue(es.client, EPC_PREFIX));
  });

  after(async () => {
    for (const r of relays) await r.stop();
    for (const c of consumers) await c.close();
    const ch = await plain?.createChannel();
    for (const q of [used, idle]) await ch?.deleteQueue(q).catch(() => undefined);
    await plain?.close().catch(() => undefined);
    await dropKeysAndQuit(redis, keys);
  });

  const start = async (): Promise<RunningRelay> => {
    const relay = startRelay({ client: es.client, redis: redis!, keys, logger: createLogger('relay'), brokerUrl: AMQP_URL, retirement: RETIREMENT });
    relays.push(relay);
    await relay.started;
    return relay;
  };

  /** Whether the broker has `queue` (a passive declare on a channel of its own: a 404 closes it). */
  const exists = async (queue: string): Promise<boolean> => {
    const ch = await plain!.createChannel();
    ch.on('error', () => undefined);
    try {
      await ch.checkQueue(queue);
      await ch.close();
      return true;
    } catch {
      return false;
    }
  };

  it('the unconsumed queue is retired and deleted after the idle time; the consumed one keeps receiving, also after a restart', async () => {
    // Consuming before the relay's first check, so a slow machine cannot make the used queue look idle.
    const consumer = await consume(used);
    consumers.push(consumer);
    const relay = await start();
    // Both queues receive while the idle one is not retired yet.
    const first = await appendChanges(es.client, [change({ epc: `${EPC_PREFIX}00000000000001` })]);
    await consumer.until(1);
    expect(await exists(idle), 'idle queue before its retirement').to.equal(true);

    const deadline = Date.now() + 20_000;
    let retired: Array<{ type: string; data: unknown }> = [];
    while (retired.length === 0) {
      if (Date.now() > deadline) throw new Error('idle queue not retired within 20 s');
      await sleep(200);
      retired = (await readStream(es.client, queueStream(ids.idle), queueEvents)).events.filter((e) => e.type === 'QueueRetired');
    }
    const data = retired[0]!.data as { queue: string; reason: string; idleSince: string; retiredAt: string };
    expect(data.queue).to.equal(idle);
    expect(data.reason).to.equal('NO_CONSUMER');
    expect(Date.parse(data.retiredAt) - Date.parse(data.idleSince), 'idle for at least idleMs').to.be.at.least(RETIREMENT.idleMs);
    expect((await readStream(es.client, queueStream(ids.used), queueEvents)).events.map((e) => e.type), 'consumed queue').to.deep.equal(['QueueConfigured']);
    // The broker queue is deleted right after QueueRetired is appended: wait for it rather than race it.
    const deleteDeadline = Date.now() + 10_000;
    while ((await exists(idle)) && Date.now() < deleteDeadline) await sleep(200);
    expect(await exists(idle), 'idle queue after its retirement').to.equal(false);

    // Matching messages go to the consumed queue only: the retired one is not recreated for them.
    const second = await appendChanges(es.client, [change({ epc: `${EPC_PREFIX}00000000000002` })]);
    await consumer.until(2);
    await sleep(500);
    expect(await exists(idle), 'retired queue recreated by a message').to.equal(false);

    // A restart rebuilds the registry from the log: the retired queue stays retired (not redeclared, no messages).
    await relay.stop();
    await start();
    const third = await appendChanges(es.client, [change({ epc: `${EPC_PREFIX}00000000000003` })]);
    await consumer.until(3);
    await sleep(500);
    expect(await exists(idle), 'retired queue after a relay restart').to.equal(false);
    expect(consumer.messages.map((m) => m.messageId)).to.deep.equal([`${first}:0`, `${second}:0`, `${third}:0`]);
    // Its idle clock is gone from Redis, the consumed queue never had one.
    expect(await redis!.hGetAll(keys.queueIdleSince)).to.deep.equal({});
  });
});
