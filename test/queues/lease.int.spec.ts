// One relay publishes at a time (docs/queues.md, "One relay at a time"): a
// second relay on the same Redis namespace stands by (publishes nothing, so
// no message is doubled), takes over when the first stops, and a relay that
// finds its lease taken stops publishing and stands by until the lease is
// free, then resumes from the checkpoint without losing anything. Embedded
// event store, real Redis and RabbitMQ; relays in-process with a short lease.
import * as amqp from 'amqplib';
import { expect } from 'chai';
import { loadConfigOrThrow } from '../../src/config';
import { connectRedis, type RedisClient } from '../../src/core/redis/connect';
import { RedisKeys } from '../../src/core/redis/keys';
import { startRelay, type RunningRelay } from '../../src/queues/relay';
import { withEventStore, testLogger } from '../support/eventstore';
import { AMQP_URL, appendChanges, change, consume, type Consumer } from './support';
import { configureItemQueue, dropKeysAndQuit, recordingLogger, type LogLine } from './relay-fixture';
import { sleep, waitForValue } from '../support/wait';

const EPC_PREFIX = 'E2800000A9';
// Long enough that a busy machine's event-loop stalls do not let a lease lapse by accident.
const LEASE_MS = 3000;

describe('relay lease: one relay publishes at a time', function () {
  this.timeout(60_000);
  const es = withEventStore();
  const keys = new RedisKeys(`tagtrail-test-${crypto.randomUUID()}:`);
  let redis: RedisClient | undefined;
  const relays: RunningRelay[] = [];
  let consumer: Consumer | undefined;
  let queue = '';
  let n = 0;
  /** Logs of the relay that takes over in the first test and keeps running into the second. */
  const linesB: LogLine[] = [];

  before(async () => {
    redis = await connectRedis(loadConfigOrThrow({}).redisUrl, testLogger('redis'), 5000);
    queue = (await configureItemQueue(es.client, EPC_PREFIX)).queue;
    consumer = await consume(queue);
  });

  after(async () => {
    for (const r of relays) await r.stop();
    await consumer?.close();
    const conn = await amqp.connect(AMQP_URL);
    await (await conn.createChannel()).deleteQueue(queue).catch(() => undefined);
    await conn.close().catch(() => undefined);
    await dropKeysAndQuit(redis, keys);
  });

  const start = (lines: LogLine[]): RunningRelay => {
    const relay = startRelay({ client: es.client, redis: redis!, keys, logger: recordingLogger(lines), brokerUrl: AMQP_URL, leaseMs: LEASE_MS });
    relays.push(relay);
    return relay;
  };
  const append = async (count: number): Promise<string[]> => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push(`${await appendChanges(es.client, [change({ epc: `${EPC_PREFIX}${String(++n).padStart(14, '0')}` })])}:0`);
    return ids;
  };
  /** Every message received once: no relay doubled it. */
  const receivedOnce = async (expected: string[]): Promise<void> => {
    await consumer!.until(expected.length);
    await sleep(LEASE_MS); // a second publisher's copies would arrive meanwhile
    expect(consumer!.messages.map((m) => m.messageId)).to.deep.equal(expected);
  };

  it('a second relay stands by without publishing, and takes over when the first stops', async () => {
    const linesA: LogLine[] = [];
    const a = start(linesA);
    await a.started;
    const b = start(linesB);
    let bStarted = false;
    void b.started.then(() => (bStarted = true), () => undefined);
    await sleep(2 * LEASE_MS);
    expect(bStarted, 'standby started').to.equal(false);
    expect(linesB.some((l) => l.msg === 'relay: standby, another relay holds the lease')).to.equal(true);

    const first = await append(5);
    await receivedOnce(first);

    await a.stop();
    await b.started; // released by a's stop: at once, not after the lease time
    expect(linesB.some((l) => l.msg === 'relay: lease acquired, taking over')).to.equal(true);
    const second = await append(5);
    await receivedOnce([...first, ...second]);
  });

  it('a relay whose lease was taken stops publishing, stands by, and resumes from its checkpoint once the lease is free', async () => {
    const logged = (msg: string): number => linesB.filter((l) => l.msg === msg).length;
    const takeovers = logged('relay: lease acquired, taking over');
    // Another holder has the lease (as after an expiry while the relay was paused).
    await redis!.set(keys.relayLease, 'someone-else');
    const deadline = Date.now() + 10_000;
    while (logged('relay: lease lost to another relay; stopping publishing and standing by') === 0) {
      if (Date.now() > deadline) throw new Error('the relay did not notice its lease was taken');
      await sleep(50);
    }
    const before = consumer!.messages.length;
    const during = await append(3);
    await sleep(2 * LEASE_MS);
    expect(consumer!.messages.length, 'published while the lease was taken').to.equal(before);
    // The other holder is gone: the relay takes over again and delivers what it had not published.
    await redis!.del(keys.relayLease);
    await consumer!.until(before + during.length, 20_000);
    expect(consumer!.messages.slice(before).map((m) => m.messageId)).to.deep.equal(during);
    expect(logged('relay: lease acquired, taking over')).to.equal(takeovers + 1);
  });

  it('a lease that expired with nobody taking it is taken again by its relay, which publishes on', async () => {
    const lost = (): number => linesB.filter((l) => l.msg === 'relay: lease lost to another relay; stopping publishing and standing by').length;
    const lostBefore = lost();
    const holder = await redis!.get(keys.relayLease);
    expect(holder, 'the relay holds the lease').to.be.a('string');
    // As if it had expired (the process paused, a factory reset dropped the key).
    await redis!.del(keys.relayLease);
    const retaken = await waitForValue('the lease to be taken again', () => redis!.get(keys.relayLease), (v) => v !== null);
    expect(retaken, 'taken again by the same relay').to.equal(holder);
    const before = consumer!.messages.length;
    const more = await append(3);
    await consumer!.until(before + more.length);
    expect(consumer!.messages.slice(before).map((m) => m.messageId)).to.deep.equal(more);
    expect(lost(), 'stood by').to.equal(lostBefore);
  });
});
