// Queues end to end, in-process app with the relay: configuration over HTTP
// (descriptor, declaration with the clients' arguments, 400s that record
// nothing, roles), every item filter on chosen ItemsChanged events, delivery
// mode and messageId, the health queue through the agent API, a queue the
// broker deleted being recreated, and a restart on the same data.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as amqp from 'amqplib';
import { EventStoreDBClient, START } from '@eventstore/db-client';
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app';
import { userWithRole } from '../readerdefinitions/e2e-support';
import { agentAuthorization } from '../../src/agents/guard';
import { QUEUE_ARGUMENTS } from '../../src/queues/model';
import { AMQP_URL, appendChanges, change, consume, T0, type Consumer } from './support';
import { appendEvents } from '../../src/core/eventstore';
import { encodeEvent } from '../../src/core/events';
import { ENGINE_STREAM, itemEvents } from '../../src/engine/events';
import { sleep } from '../support/wait';

const ITEMS = '/data/v1/items/queues';
const HEALTH = '/health/v1/events/queues';
const THRESHOLD = '/data/v1/items/queues/threshold';
const ROLES_NO_ENGINE = 'api,eventstore,projections,relay,jobs';

async function queueConfiguredCount(client: EventStoreDBClient): Promise<number> {
  let n = 0;
  for await (const e of client.readAll({ fromPosition: START })) if (e.event?.type === 'QueueConfigured') n++;
  return n;
}

describe('AMQP queues (relay role, in-process)', function () {
  this.timeout(120_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'tagtrail-queues-'));
  const keyPrefix = `tagtrail-test-${crypto.randomUUID()}:`;
  const env = { DATA_DIR: dataDir, REDIS_KEY_PREFIX: keyPrefix, ROLES: ROLES_NO_ENGINE };
  let app: TestApp;
  let client: EventStoreDBClient;
  const consumers: Consumer[] = [];

  before(async () => {
    app = await startTestApp(env);
    client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
  });
  after(async () => {
    for (const c of consumers) await c.close();
    await client?.dispose();
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const configure = async (path: string, body: unknown, query = ''): Promise<{ serverUrl: string; queue: string }> => {
    const res = await app.request('PUT', `${path}${query}`, { body });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as { serverUrl: string; queue: string };
  };
  const consumer = async (queue: string): Promise<Consumer> => {
    const c = await consume(queue);
    consumers.push(c);
    return c;
  };

  it('answers {serverUrl, queue} and has declared the queue as clients redeclare it', async () => {
    const d = await configure(ITEMS, {});
    expect(d.serverUrl).to.equal('amqp://127.0.0.1:5672/%2F');
    expect(d.queue).to.match(/^tagtrail\.items\.[0-9a-f-]{36}$/);
    const conn = await amqp.connect(AMQP_URL);
    try {
      const ch = await conn.createChannel();
      await ch.checkQueue(d.queue); // passive: exists already
      await ch.assertQueue(d.queue, { durable: true, arguments: { ...QUEUE_ARGUMENTS } }); // same arguments: accepted
    } finally {
      await conn.close();
    }
    const again = await configure(ITEMS, {});
    expect(again.queue, 'a new queue per call').to.not.equal(d.queue);
    const h = await configure(HEALTH, { readerName: 'r1' });
    expect(h.queue).to.match(/^tagtrail\.health\./);
    const t = await configure(THRESHOLD, { threshold: 'th-1', jobId: 'j' });
    expect(t.queue).to.match(/^tagtrail\.threshold\./);
  });

  it('bad filters are 400s naming the field, and record nothing', async () => {
    const before = await queueConfiguredCount(client);
    const cases: Array<[string, unknown, string, string]> = [
      [ITEMS, { distance: -1 }, '', 'body.distance'],
      [ITEMS, { distance: '5' }, '', 'body.distance'],
      [ITEMS, { epc: 'XYZ' }, '', 'body.epc'],
      [ITEMS, { zoneTransitionsOnly: 'yes' }, '', 'body.zoneTransitionsOnly'],
      [ITEMS, { toZone: 7 }, '', 'body.toZone'],
      [ITEMS, { zone: 'DOCK' }, '', 'body.zone'],
      [ITEMS, {}, '?deliveryMode=SOMETIMES', 'query.deliveryMode'],
      [HEALTH, { type: 'NOPE' }, '', 'body.type'],
      [HEALTH, { code: 'NOPE' }, '', 'body.code'],
      [HEALTH, { type: 'CONNECTION', code: 'NTP' }, '', 'body.code'],
      [THRESHOLD, { threshold: 5 }, '', 'body.threshold'],
    ];
    for (const [path, body, query, field] of cases) {
      const res = await app.request('PUT', `${path}${query}`, { body });
      expect(res.status, `${path} ${JSON.stringify(body)}`).to.equal(400);
      expect(res.body.errors.map((e: { path: string }) => e.path), JSON.stringify(res.body)).to.include(field);
    }
    expect(await queueConfiguredCount(client)).to.equal(before);
  });

  it('every text field of a filter is held to the length of a name (256): longer is a 400 naming the field, recording nothing', async () => {
    const before = await queueConfiguredCount(client);
    const fields: Array<[string, string, string]> = [
      [ITEMS, 'fromFacility', 'x'], [ITEMS, 'toFacility', 'x'], [ITEMS, 'fromZone', 'x'], [ITEMS, 'toZone', 'x'], [ITEMS, 'jobId', 'x'], [ITEMS, 'epc', 'E'],
      [HEALTH, 'readerName', 'x'], [HEALTH, 'code', 'x'],
      [THRESHOLD, 'threshold', 'x'], [THRESHOLD, 'jobId', 'x'],
    ];
    for (const [path, field, char] of fields) {
      for (const length of [100_000, 257]) {
        const res = await app.request('PUT', path, { body: { [field]: char.repeat(length) } });
        expect(res.status, `${path} ${field} of ${length}`).to.equal(400);
        expect(res.body.errors, `${path} ${field} of ${length}`).to.deep.equal([
          { path: `body.${field}`, reason: `must be at most 256 characters, got ${length}`, message: `must be at most 256 characters, got ${length}` },
        ]);
      }
      const control = await app.request('PUT', path, { body: { [field]: `${char}\u0085${char}` } });
      expect(control.status, `${path} ${field} with a control character`).to.equal(400);
      expect(control.body.errors[0].path).to.equal(`body.${field}`);
    }
    const infinite = await app.request('PUT', ITEMS, { raw: '{"distance":1e999}' });
    expect(infinite.status).to.equal(400);
    expect(infinite.body.errors[0]).to.include({ path: 'body.distance' });
    expect(await queueConfiguredCount(client)).to.equal(before);
    // 256 characters are a name: accepted.
    const longest = await app.request('PUT', ITEMS, { body: { fromZone: 'z'.repeat(256), epc: 'E'.repeat(256) } });
    expect(longest.status, JSON.stringify(longest.body)).to.equal(200);
    expect((await app.request('PUT', THRESHOLD, { body: { threshold: 't'.repeat(256) } })).status).to.equal(200);
  });

  it('roles: DataReader (and Admin) may configure queues, ConfigManager may not', async () => {
    const reader = await userWithRole(app, 'qreader', 'DataReader');
    const config = await userWithRole(app, 'qconfig', 'ConfigManager');
    for (const path of [ITEMS, HEALTH, THRESHOLD]) {
      expect((await app.request('PUT', path, { body: {}, auth: reader })).status, path).to.equal(200);
      expect((await app.request('PUT', path, { body: {}, auth: config })).status, path).to.equal(403);
      expect((await app.request('PUT', path, { body: {}, auth: null })).status, path).to.equal(401);
    }
  });

  it('each item filter receives exactly the matching changes, as ItemEvents with messageId <event id>:<index>', async () => {
    const filters: Record<string, [Record<string, unknown>, string]> = {
      all: [{}, ''],
      fromZone: [{ fromZone: 'DOCK' }, ''],
      toZone: [{ toZone: 'EXIT' }, ''],
      fromFacility: [{ fromFacility: 'STORE' }, ''],
      toFacility: [{ toFacility: 'DC' }, ''],
      epc: [{ epc: 'e2800000000000000000b' }, ''],
      jobId: [{ jobId: 'job-b' }, ''],
      distance: [{ distance: 2 }, ''],
      moves: [{ zoneTransitionsOnly: false }, ''],
      combined: [{ fromZone: 'DOCK', toZone: 'SHELF', jobId: 'job-a' }, ''],
      transient: [{}, '?deliveryMode=NON_PERSISTENT'],
    };
    const queues = new Map<string, Consumer>();
    for (const [name, [body, query]] of Object.entries(filters)) queues.set(name, await consumer((await configure(ITEMS, body, query)).queue));

    const changes = [
      change({ epc: 'E2800000000000000000A001', kind: 'FIRST_SEEN', fromZone: 'ABSENT', fromFacility: null, fromFloor: null, fromX: null, fromY: null }),
      change({ epc: 'E2800000000000000000A002' }), // DOCK -> SHELF, 1 m, job-a
      change({ epc: 'E2800000000000000000B003', fromZone: 'SHELF', toZone: 'EXIT', toX: 3, toY: 4 }), // 5 m
      change({ epc: 'E2800000000000000000A004', toFacility: 'DC', toZone: 'INBOUND', jobId: 'job-b' }),
      change({ epc: 'E2800000000000000000A005', kind: 'MOVED', fromZone: 'SHELF', toZone: 'SHELF', toX: 2 }),
      change({ epc: 'E2800000000000000000A006', kind: 'HEARTBEAT', fromZone: 'SHELF', toZone: 'SHELF', toX: 0 }),
      change({ epc: 'E2800000000000000000A007', reportToMessageQueueEnabled: false }),
      change({ epc: 'E2800000000000000000B008', kind: 'EXPIRED', fromZone: 'DOCK', toZone: 'ABSENT', toFloor: null, toX: null, toY: null }),
    ];
    const eventId = await appendChanges(client, changes);
    const expected: Record<string, number[]> = {
      all: [1, 2, 3, 4, 8],
      fromZone: [1, 2, 4, 8].filter((n) => n !== 1), // FIRST_SEEN comes from ABSENT
      toZone: [3],
      fromFacility: [2, 3, 4, 8],
      toFacility: [4],
      epc: [3, 8],
      jobId: [4],
      distance: [3],
      moves: [1, 2, 3, 4, 5, 8],
      combined: [2],
      transient: [1, 2, 3, 4, 8],
    };
    for (const [name, numbers] of Object.entries(expected)) {
      const c = queues.get(name);
      if (!c) throw new Error(name);
      await c.until(numbers.length);
      await sleep(name === 'all' ? 500 : 0); // nothing more arrives
      expect(c.messages.map((m) => m.body.epc), name).to.deep.equal(numbers.map((n) => changes[n - 1]?.epc));
      expect(c.messages.map((m) => m.messageId), name).to.deep.equal(numbers.map((n) => `${eventId}:${n - 1}`));
      expect(c.messages.every((m) => m.deliveryMode === (name === 'transient' ? 1 : 2)), `${name} delivery mode`).to.equal(true);
    }
    expect(queues.get('all')?.messages[0]?.body).to.deep.equal({
      epc: 'E2800000000000000000A001', tagId: '', fromZone: 'ABSENT', toZone: 'SHELF', fromFloor: null, toFloor: '1',
      fromFacility: null, toFacility: 'STORE', fromX: null, toX: 1, fromY: null, toY: 0, observationTime: new Date(T0).toISOString(),
    });
  });

  it('health queues receive the health events reported through the agent API, filtered by reader, type and code', async () => {
    const reader = 'hq-1';
    expect((await app.request('POST', '/configuration/v1/readerDefinitions/create', { body: { name: reader } })).status).to.equal(200);
    const secret = (await app.request('PUT', `/agent/v1/readers/${reader}/secret`)).body.secret as string;
    const all = await consumer((await configure(HEALTH, {})).queue);
    const byReader = await consumer((await configure(HEALTH, { readerName: reader, type: 'THROUGHPUT' })).queue);
    const byCode = await consumer((await configure(HEALTH, { code: 'NTP' })).queue);
    const other = await consumer((await configure(HEALTH, { readerName: 'someone-else' })).queue);
    const events = [
      { eventTime: '2024-03-01T08:00:00.000Z', type: 'THROUGHPUT', code: 'DROPPED_READ', args: { reason: 'buffer' } },
      { eventTime: '2024-03-01T08:00:01.000Z', type: 'CLOCK_SYNC', code: 'NTP', args: {} },
    ];
    const res = await app.request('POST', `/agent/v1/readers/${reader}/health`, { auth: agentAuthorization(reader, secret), body: { events } });
    expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 202, 204]);
    await all.until(2);
    expect(all.messages.map((m) => m.body)).to.deep.equal(events.map((e) => ({ readerName: reader, ...e })));
    expect((await byReader.until(1)).map((m) => m.body.code)).to.deep.equal(['DROPPED_READ']);
    expect((await byCode.until(1)).map((m) => m.body.code)).to.deep.equal(['NTP']);
    await sleep(300);
    expect(other.messages).to.have.length(0);
    expect(byReader.messages).to.have.length(1);
  });

  it('an item reset marker (ItemsChanged with reset, no changes) sends nothing and the relay moves on past it', async () => {
    const c = await consumer((await configure(ITEMS, { epc: 'E2800000000000000000E' })).queue);
    const reset = { inputPosition: '0', at: Date.now(), changes: [], reset: { facility: 'STORE', clearHistory: true, requestId: crypto.randomUUID() } };
    await appendEvents(client, ENGINE_STREAM, [encodeEvent(itemEvents, { type: 'ItemsChanged', data: reset })], 'any');
    const next = await appendChanges(client, [change({ epc: 'E2800000000000000000E001' })]);
    expect((await c.until(1)).map((m) => [m.messageId, m.body.epc])).to.deep.equal([[`${next}:0`, 'E2800000000000000000E001']]);
  });

  it('a queue the broker deleted (as x-expires does) is recreated when a matching message must be delivered', async () => {
    const d = await configure(ITEMS, { epc: 'E2800000000000000000C' });
    const conn = await amqp.connect(AMQP_URL);
    const ch = await conn.createChannel();
    await ch.deleteQueue(d.queue);
    await conn.close();
    await appendChanges(client, [change({ epc: 'E2800000000000000000C001' })]);
    const deadline = Date.now() + 15_000;
    let c: Consumer | undefined;
    while (!c) {
      const probe = await amqp.connect(AMQP_URL);
      try {
        const pch = await probe.createChannel();
        pch.on('error', () => undefined);
        await pch.checkQueue(d.queue);
        c = await consumer(d.queue);
      } catch {
        if (Date.now() > deadline) throw new Error('queue not recreated');
        await sleep(100);
      } finally {
        await probe.close().catch(() => undefined);
      }
    }
    expect((await c.until(1)).map((m) => m.body.epc)).to.deep.equal(['E2800000000000000000C001']);
  });

  it('after a restart on the same data the queues keep receiving (registry rebuilt, queues redeclared), including a queue deleted while down', async () => {
    const keep = await configure(ITEMS, { epc: 'E2800000000000000000D' });
    const gone = await configure(ITEMS, { epc: 'E2800000000000000000D' });
    await appendChanges(client, [change({ epc: 'E2800000000000000000D001' })]);
    const keepConsumer = await consumer(keep.queue);
    await keepConsumer.until(1);
    await client.dispose();
    await app.stop({ keepRedis: true });
    const conn = await amqp.connect(AMQP_URL);
    await (await conn.createChannel()).deleteQueue(gone.queue);
    await conn.close();
    app = await startTestApp(env);
    client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    // Redeclared at start: a passive check succeeds before any message arrives.
    for (let i = 0; ; i++) {
      const probe = await amqp.connect(AMQP_URL);
      const pch = await probe.createChannel();
      pch.on('error', () => undefined);
      const ok = await pch.checkQueue(gone.queue).then(() => true, () => false);
      await probe.close().catch(() => undefined);
      if (ok) break;
      if (i > 100) throw new Error('queue not redeclared at start');
      await sleep(100);
    }
    await appendChanges(client, [change({ epc: 'E2800000000000000000D002' })]);
    const goneConsumer = await consumer(gone.queue);
    expect((await goneConsumer.until(1)).map((m) => m.body.epc)).to.deep.equal(['E2800000000000000000D002']);
    await keepConsumer.until(2);
    expect(keepConsumer.messages.map((m) => m.body.epc)).to.deep.equal(['E2800000000000000000D001', 'E2800000000000000000D002']);
  });
});
