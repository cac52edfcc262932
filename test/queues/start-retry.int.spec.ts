// The relay retries its start-up (docs/queues.md, "Start-up"): it is started
// with a broker URL whose port nobody listens on yet and a short start-up
// timeout, so its first attempts fail; a few seconds later a TCP proxy to the
// machine's RabbitMQ opens on that port. The relay must then start and
// publish an event appended before the broker was reachable and one appended
// after. And stop() while it retries (inside a connect attempt, or in the wait
// between attempts) must end promptly, with no attempt after it. Embedded
// event store, real Redis and RabbitMQ; the queue is consumed with plain
// amqplib on the broker itself.
import * as amqp from 'amqplib';
import { expect } from 'chai';
import { loadConfigOrThrow } from '../../src/config';
import { connectRedis, type RedisClient } from '../../src/core/redis/connect';
import { RedisKeys } from '../../src/core/redis/keys';
import { startRelay, type RunningRelay } from '../../src/queues/relay';
import { freePort } from '../../bench/support/ports';
import { withEventStore, testLogger } from '../support/eventstore';
import { AMQP_URL, appendChanges, change, consume, type Consumer } from './support';
import { configureItemQueue, dropKeysAndQuit, recordingLogger, type LogLine } from './relay-fixture';
import { brokerProxy, urlOnPort } from './broker-proxy';
import { sleep } from '../support/wait';

const EPC_PREFIX = 'E2800000C5';

describe('relay start-up retried until the broker is reachable', function () {
  this.timeout(60_000);
  const es = withEventStore();
  const keys = new RedisKeys(`tagtrail-test-${crypto.randomUUID()}:`);
  let redis: RedisClient | undefined;
  const relays: RunningRelay[] = [];
  const consumers: Consumer[] = [];
  const proxies: Array<{ close(): Promise<void> }> = [];
  let queue = '';

  before(async () => {
    redis = await connectRedis(loadConfigOrThrow({}).redisUrl, testLogger('redis'), 5000);
    queue = (await configureItemQueue(es.client, EPC_PREFIX)).queue;
  });

  after(async () => {
    for (const r of relays) await r.stop();
    for (const p of proxies) await p.close();
    for (const c of consumers) await c.close();
    if (queue !== '') {
      const conn = await amqp.connect(AMQP_URL);
      await (await conn.createChannel()).deleteQueue(queue).catch(() => undefined);
      await conn.close().catch(() => undefined);
    }
    await dropKeysAndQuit(redis, keys);
  });

  const start = (port: number, lines: LogLine[], startupTimeoutMs: number, startRetry: { initialMs: number; maxMs: number }): RunningRelay => {
    const relay = startRelay({ client: es.client, redis: redis!, keys, logger: recordingLogger(lines), brokerUrl: urlOnPort(port), startupTimeoutMs, startRetry });
    relays.push(relay);
    return relay;
  };
  const retries = (lines: LogLine[]): LogLine[] => lines.filter((l) => l.msg === 'relay: start failed, retrying');

  /** stop() returns long before the 20 s the relay would otherwise wait, start-up rejects, and no attempt follows. */
  const stopsAtOnce = async (relay: RunningRelay, port: number, lines: LogLine[], retriesBefore: number): Promise<void> => {
    const t0 = Date.now();
    await relay.stop();
    // A deadline, not a speed figure: without the abort, stop() takes the whole 20 s.
    expect(Date.now() - t0, 'stop() took').to.be.lessThan(5000);
    let outcome = 'pending';
    await relay.started.then(() => (outcome = 'resolved'), () => (outcome = 'rejected'));
    expect(outcome).to.equal('rejected');
    // Something listening now would see any attempt still going on.
    const listener = await brokerProxy(port, false);
    proxies.push(listener);
    await sleep(1500);
    expect(listener.accepted(), 'connections after stop()').to.equal(0);
    expect(retries(lines)).to.have.length(retriesBefore);
  };

  it('fails while nothing listens, retries with back-off, starts once the broker is reachable and delivers events from before and after', async () => {
    const consumer = await consume(queue);
    consumers.push(consumer);
    const port = await freePort();
    const lines: LogLine[] = [];
    const relay = start(port, lines, 250, { initialMs: 200, maxMs: 800 });
    let startedAt: number | undefined;
    void relay.started.then(() => (startedAt = Date.now()), () => undefined);

    const before = await appendChanges(es.client, [change({ epc: `${EPC_PREFIX}00000000000001` })]);
    // Each attempt gives up after ~0.3 s (amqplib's own retries inside it), then waits 0.2, 0.4, 0.8 s: four attempts
    // take about 3 s (polled with a generous deadline, so a busy machine does not fail the test).
    const deadline = Date.now() + 20_000;
    while (retries(lines).length < 4) {
      if (Date.now() > deadline) throw new Error(`${retries(lines).length} failed attempts in 20 s`);
      await sleep(100);
    }
    expect(startedAt, 'started without a broker').to.equal(undefined);
    const failed = retries(lines);
    expect(failed.every((l) => l.level === 'warn')).to.equal(true);
    expect(failed.slice(0, 3).map((l) => [l.fields['attempt'], l.fields['delayMs']])).to.deep.equal([[1, 200], [2, 400], [3, 800]]);
    expect(failed.slice(3).every((l) => l.fields['delayMs'] === 800), 'capped at maxMs').to.equal(true);
    expect(String(failed[0]?.fields['err'])).to.contain('not reachable within 250 ms');
    expect(lines.some((l) => l.msg === 'relay started')).to.equal(false);

    const proxyUpAt = Date.now();
    proxies.push(await brokerProxy(port, true));
    await relay.started;
    // At most one wait (800 ms) plus one attempt after the proxy opened.
    expect((startedAt ?? Infinity) - proxyUpAt).to.be.lessThan(5000);
    expect(lines.some((l) => l.msg === 'relay started')).to.equal(true);

    const after = await appendChanges(es.client, [change({ epc: `${EPC_PREFIX}00000000000002` })]);
    await appendChanges(es.client, [change({ epc: 'E2800000DD00000000000003' })]); // matches no queue
    const received = await consumer.until(2);
    await sleep(300); // a wrong extra message would show up
    expect(new Set(received.map((m) => m.messageId))).to.deep.equal(new Set([`${before}:0`, `${after}:0`]));
    expect(received.map((m) => m.body.epc).sort()).to.deep.equal([`${EPC_PREFIX}00000000000001`, `${EPC_PREFIX}00000000000002`]);
    // It holds the relay lease of this namespace: the next tests' relays would stand by behind it.
    await relay.stop();
  });

  it('stop() inside a connect attempt ends it at once; no attempt follows', async () => {
    const port = await freePort();
    const lines: LogLine[] = [];
    // A 20 s start-up timeout: after 1 s the relay is inside its first connect attempt.
    const relay = start(port, lines, 20_000, { initialMs: 200, maxMs: 200 });
    await sleep(1000);
    expect(retries(lines)).to.have.length(0);
    await stopsAtOnce(relay, port, lines, 0);
  });

  it('stop() in the wait between attempts ends it at once; no attempt follows', async () => {
    const port = await freePort();
    const lines: LogLine[] = [];
    // Attempts fail after 300 ms, then a 20 s wait.
    const relay = start(port, lines, 300, { initialMs: 20_000, maxMs: 20_000 });
    const deadline = Date.now() + 10_000;
    while (retries(lines).length === 0) {
      if (Date.now() > deadline) throw new Error('no failed attempt logged');
      await sleep(50);
    }
    expect(retries(lines)[0]?.fields['delayMs']).to.equal(20_000);
    await stopsAtOnce(relay, port, lines, 1);
  });
});
