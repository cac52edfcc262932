// The relay's position is in the event log (docs/queues.md, "Position in the
// log"): two relays started together publish every message once; a Redis
// that lost the test's keys, followed by a relay restart, republishes
// nothing the broker confirmed; a relay whose position another process took
// over is refused at its next save and stands by. Embedded event store, real
// Redis and RabbitMQ; relays in-process.
import * as amqp from 'amqplib';
import { expect } from 'chai';
import { loadConfigOrThrow } from '../../src/config';
import { connectRedis, type RedisClient } from '../../src/core/redis/connect';
import { RedisKeys } from '../../src/core/redis/keys';
import { startRelay, RELAY_SUBSCRIPTION, type RunningRelay } from '../../src/queues/relay';
import { CheckpointFenced, LogCheckpoint, readLogCheckpoint } from '../../src/core/subscriptions/log-checkpoint';
import { withEventStore, testLogger } from '../support/eventstore';
import { AMQP_URL, appendChanges, change, consume, type Consumer } from './support';
import { configureItemQueue, dropKeysAndQuit, recordingLogger, stopInOrder, type LogLine } from './relay-fixture';
import { sleep, waitFor, waitForValue } from '../support/wait';

const EPC_PREFIX = 'E2800000F1';
const LEASE_MS = 3000;

describe('relay fencing: one writer, and a position that survives Redis', function () {
  this.timeout(90_000);
  const es = withEventStore();
  const keys = new RedisKeys(`tagtrail-test-${crypto.randomUUID()}:`);
  let redis: RedisClient | undefined;
  const running: RunningRelay[] = [];
  let consumer: Consumer | undefined;
  let queue = '';
  let n = 0;

  before(async () => {
    redis = await connectRedis(loadConfigOrThrow({}).redisUrl, testLogger('redis'), 5000);
    queue = (await configureItemQueue(es.client, EPC_PREFIX)).queue;
    consumer = await consume(queue);
  });

  after(async () => {
    await stopInOrder(running);
    await consumer?.close();
    const conn = await amqp.connect(AMQP_URL);
    await (await conn.createChannel()).deleteQueue(queue).catch(() => undefined);
    await conn.close().catch(() => undefined);
    await dropKeysAndQuit(redis, keys);
  });

  const start = (lines: LogLine[] = []): RunningRelay => {
    const relay = startRelay({ client: es.client, redis: redis!, keys, logger: recordingLogger(lines), brokerUrl: AMQP_URL, leaseMs: LEASE_MS });
    running.push(relay);
    return relay;
  };
  const append = async (count: number): Promise<string[]> => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push(`${await appendChanges(es.client, [change({ epc: `${EPC_PREFIX}${String(++n).padStart(14, '0')}` })])}:0`);
    return ids;
  };
  /** The queue holds exactly `expected`, in order, each once (waiting a lease time for late copies). */
  const receivedOnce = async (expected: string[]): Promise<void> => {
    await consumer!.until(expected.length);
    await sleep(LEASE_MS);
    expect(consumer!.messages.map((m) => m.messageId)).to.deep.equal(expected);
  };
  /** Drops every key of the test's namespace, as a Redis that lost its data (the lease included). */
  const loseRedis = async (): Promise<void> => {
    for await (const found of redis!.scanIterator({ MATCH: keys.pattern, COUNT: 500 })) if (found.length) await redis!.del(found);
  };
  const sent: string[] = [];

  it('two relays started together: one takes the position, every message is published once', async () => {
    const [a, b] = [start(), start()];
    await Promise.race([a.started, b.started]);
    sent.push(...(await append(6)));
    await receivedOnce(sent);
    const holders = await readLogCheckpoint(es.client, RELAY_SUBSCRIPTION);
    expect(holders.holder, 'one relay holds the position').to.be.a('string');
    await stopInOrder(running);
    const saved = await readLogCheckpoint(es.client, RELAY_SUBSCRIPTION);
    expect(saved.at, 'the confirmed position is in the log').to.not.equal(undefined);
  });

  it('Redis lost, then the relay restarted: nothing confirmed is published again', async () => {
    await loseRedis();
    const relay = start();
    await relay.started;
    const more = await append(4);
    sent.push(...more);
    await receivedOnce(sent);
  });

  it('Redis lost while the relay runs: it publishes on from where it was, and a restart after it republishes nothing', async () => {
    await loseRedis();
    const more = await append(3);
    sent.push(...more);
    await receivedOnce(sent);
    await stopInOrder(running);
    await loseRedis();
    await start().started;
    const last = await append(2);
    sent.push(...last);
    await receivedOnce(sent);
  });

  it('a relay whose position another process took is refused at its next save, stands by, and loses nothing', async () => {
    const lines: LogLine[] = [];
    await stopInOrder(running);
    await start(lines).started;
    const other = new LogCheckpoint({ client: es.client, name: RELAY_SUBSCRIPTION, holder: `other-${crypto.randomUUID()}`, logger: testLogger('other') });
    await other.take();
    const more = await append(3);
    await waitFor('the relay to be refused and stand by', () => lines.some((l) => l.msg === 'relay: another relay took the checkpoint over; stopping publishing and standing by'));
    // It takes the position back once its lease is free again (nobody else holds it) and delivers everything.
    // Every message by its id, not a count: a redelivery within the last unconfirmed batch (at-least-once) adds to the count.
    const wanted = [...sent, ...more];
    await waitFor('every message delivered', () => wanted.every((id) => consumer!.ids().has(id)), { timeoutMs: 30_000 });
    const ids = consumer!.ids();
    for (const id of wanted) expect(ids.has(id), id).to.equal(true);
    const holder = await waitForValue('the relay to take the position back', async () => (await readLogCheckpoint(es.client, RELAY_SUBSCRIPTION)).holder, (h) => h !== undefined && !h.startsWith('other-'));
    expect(holder).to.not.match(/^other-/);
    // The other process is fenced out in turn.
    const refused = await other.save({ at: { commit: 1n << 40n, prepare: 1n << 40n }, skip: 0 }, true).then(() => undefined, (err: unknown) => err);
    expect(refused).to.be.instanceOf(CheckpointFenced);
  });
});
