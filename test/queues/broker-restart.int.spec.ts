// Queues keep receiving across a restart of RabbitMQ, and of RabbitMQ and
// tagtrail together. A dedicated RabbitMQ node (spare ports, temporary
// directory: test/brokerauth/rabbitmq-node.ts) is the broker of an
// in-process tagtrail; the machine's shared node at 5672 is not touched.
// 1. The node process is stopped (`rabbitmqctl stop`) and started again on the
//    same data directory and ports; events are recorded while it is down.
// 2. RabbitMQ stopped (`rabbitmqctl stop_app`: the application stops, closing
//    every connection and port; the Erlang VM stays), events recorded,
//    tagtrail stopped, both started again (RabbitMQ first).
// Durable queues and persistent messages must survive, the relay must
// reconnect and publish what it could not: every expected messageId must
// arrive (duplicates allowed).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as amqp from 'amqplib';
import { EventStoreDBClient } from '@eventstore/db-client';
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app';
import { findRabbitTools, startRabbitNode, type RabbitNode } from '../brokerauth/rabbitmq-node';
import { appendChanges, change, consume, type Consumer } from './support';
import { sleep } from '../support/wait';

const ROLES_NO_ENGINE = 'api,eventstore,projections,relay,jobs';
const CHANGES_PER_EVENT = 10;

describe('queues keep receiving after a restart of RabbitMQ, or of RabbitMQ and tagtrail (dedicated node)', function () {
  this.timeout(240_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'tagtrail-broker-restart-'));
  const keyPrefix = `tagtrail-test-${crypto.randomUUID()}:`;
  let node: RabbitNode | undefined;
  let app: TestApp | undefined;
  let client: EventStoreDBClient | undefined;
  let queue = '';
  const consumers: Consumer[] = [];
  const expected = new Set<string>();
  let epcs = 0;

  const env = (): Record<string, string> => ({ DATA_DIR: dataDir, REDIS_KEY_PREFIX: keyPrefix, ROLES: ROLES_NO_ENGINE, AMQP_URL: node!.url('guest', 'guest') });
  const startApp = async (): Promise<void> => {
    app = await startTestApp(env());
    client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
  };
  /** Appends `events` ItemsChanged, recording the messageIds they must produce. */
  const stream = async (events: number): Promise<void> => {
    for (let i = 0; i < events; i++) {
      const changes = Array.from({ length: CHANGES_PER_EVENT }, () => change({ epc: `E28000000000${String(epcs++).padStart(12, '0')}` }));
      const id = await appendChanges(client!, changes);
      changes.forEach((_, k) => expected.add(`${id}:${k}`));
    }
  };
  const received = (): Set<string> => new Set(consumers.flatMap((c) => [...c.ids()]));
  const allArrived = async (timeoutMs = 90_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const ids = received();
      const missing = [...expected].filter((id) => !ids.has(id));
      if (missing.length === 0) return;
      if (Date.now() > deadline) throw new Error(`${missing.length} of ${expected.size} messages never arrived, e.g. ${missing.slice(0, 3).join(', ')}`);
      await sleep(200);
    }
  };
  const newConsumer = async (): Promise<Consumer> => {
    const c = await consume(queue, node!.url('guest', 'guest'));
    consumers.push(c);
    return c;
  };
  /** Ready messages in the queue (passive declare, as a guest of the node). */
  const readyCount = async (): Promise<number> => {
    const conn = await amqp.connect(node!.url('guest', 'guest'));
    try {
      return (await (await conn.createChannel()).checkQueue(queue)).messageCount;
    } finally {
      await conn.close().catch(() => undefined);
    }
  };
  const brokerUp = async (timeoutMs = 60_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        const conn = await amqp.connect(node!.url('guest', 'guest'), { timeout: 2000 });
        await conn.close();
        return;
      } catch (err) {
        if (Date.now() > deadline) throw new Error(`broker not up again: ${(err as Error).message}\n${node!.logTail()}`, { cause: err });
        await sleep(250);
      }
    }
  };

  before(async function () {
    const tools = findRabbitTools();
    if (!tools) {
      console.log('    (skipped: rabbitmq-server is not installed, so no dedicated RabbitMQ node can be started)');
      this.skip();
    }
    node = await startRabbitNode(tools!, { config: 'listeners.tcp.1 = 127.0.0.1:{{PORT}}\n', plugins: [] });
    await startApp();
    const res = await app!.request('PUT', '/data/v1/items/queues', { body: {} });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    queue = (res.body as { queue: string }).queue;
  });

  after(async () => {
    for (const c of consumers) await c.close();
    await client?.dispose().catch(() => undefined);
    try {
      await app?.stop();
    } finally {
      await node?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('RabbitMQ node process restarted: messages queued before survive, messages of events during the outage and after arrive', async () => {
    await newConsumer();
    await stream(10); // consumed live
    await allArrived();
    for (const c of consumers) await c.close();
    const queuedBefore = expected.size;
    await stream(10); // waits in the durable queue, persistent, while nobody consumes
    const deadline = Date.now() + 60_000;
    while ((await readyCount()) < expected.size - queuedBefore) {
      if (Date.now() > deadline) throw new Error('the relay did not publish to the queue before the restart');
      await sleep(200);
    }
    for (const c of consumers) await c.close(); // their connections die with the broker anyway
    // restart() returns to the event loop once `rabbitmqctl stop` has stopped the node; booting it again takes seconds.
    const restarting = node!.restart();
    await stream(10); // recorded while the node is down: the relay cannot publish these now
    await restarting;
    await newConsumer();
    await stream(10);
    await allArrived();
    expect(received().size).to.equal(expected.size);
  });

  it('RabbitMQ (stop_app) and tagtrail stopped, both started again: the queue keeps receiving', async () => {
    for (const c of consumers) await c.close();
    node!.ctl(['stop_app']);
    await stream(10); // recorded, not yet published when tagtrail stops
    await client?.dispose();
    await app?.stop({ keepRedis: true });
    app = undefined;
    node!.ctl(['start_app']);
    await brokerUp();
    await startApp();
    await newConsumer();
    await stream(10);
    await allArrived();
    expect(received().size).to.equal(expected.size);
  });
});
