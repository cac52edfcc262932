// The queue list and delete over HTTP, against the real broker: what
// GET /queues/v1/show answers (filter, delivery mode, the broker's message
// and consumer counts from a passive declare), who sees and may delete
// which queue, and what a delete does (no longer listed, gone from the
// broker although a consumer was attached).
import * as amqp from 'amqplib';
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/app';
import { userWithRole } from '../readerdefinitions/e2e-support';
import { AMQP_URL, consume, type Consumer } from './support';

const ITEMS = '/data/v1/items/queues';
const HEALTH = '/health/v1/events/queues';
const LIST = '/queues/v1/show';

interface Listed {
  queue: string; kind: string; filter: Record<string, unknown>; deliveryMode: string; durable: boolean; configuredAt: string; user: string; serverUrl: string;
  broker: string; messageCount: number | null; consumerCount: number | null;
}

/** Whether the broker has `queue` now (passive declare on a channel of its own). */
async function brokerHas(queue: string): Promise<boolean> {
  const conn = await amqp.connect(AMQP_URL);
  try {
    const ch = await conn.createChannel();
    ch.on('error', () => undefined);
    return await ch.checkQueue(queue).then(() => true, () => false);
  } finally {
    await conn.close().catch(() => undefined);
  }
}

describe('queue list and delete over HTTP', function () {
  this.timeout(120_000);
  let app: TestApp;
  let alice: string;
  let bob: string;
  const consumers: Consumer[] = [];

  before(async () => {
    app = await startTestApp({ ROLES: 'api,eventstore,projections,relay,jobs' });
    alice = await userWithRole(app, 'alice', 'DataReader');
    bob = await userWithRole(app, 'bob', 'DataReader');
  });
  after(async () => {
    for (const c of consumers) await c.close();
    await app?.stop();
  });

  const list = async (auth?: string): Promise<Listed[]> => {
    const res = await app.request('GET', LIST, auth === undefined ? {} : { auth });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as Listed[];
  };
  const configure = async (path: string, body: unknown, auth: string, query = ''): Promise<string> => {
    const res = await app.request('PUT', `${path}${query}`, { body, auth });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return (res.body as { queue: string }).queue;
  };

  it('lists the queues a user configured, right after configuring, with filter, delivery mode and the broker\'s counts', async () => {
    const items = await configure(ITEMS, { toZone: 'Dock', zoneTransitionsOnly: false }, alice, '?deliveryMode=NON_PERSISTENT');
    const health = await configure(HEALTH, { readerName: 'xarray-1', type: 'CONNECTION' }, alice);
    const mine = await list(alice);
    expect(mine.map((q) => q.queue)).to.deep.equal([items, health]);
    const [i, h] = mine as [Listed, Listed];
    expect(i).to.deep.include({ kind: 'items', filter: { toZone: 'Dock', zoneTransitionsOnly: false }, deliveryMode: 'NON_PERSISTENT', durable: true, user: 'alice', serverUrl: 'amqp://127.0.0.1:5672/%2F', broker: 'DECLARED', messageCount: 0, consumerCount: 0 });
    expect(h).to.deep.include({ kind: 'health', filter: { readerName: 'xarray-1', type: 'CONNECTION' }, deliveryMode: 'PERSISTENT', broker: 'DECLARED' });
    expect(Date.parse(i.configuredAt)).to.be.closeTo(Date.now(), 60_000);

    // A consumer attaches to one; two messages wait in the other.
    consumers.push(await consume(items));
    const conn = await amqp.connect(AMQP_URL);
    try {
      const ch = await conn.createConfirmChannel();
      ch.sendToQueue(health, Buffer.from('{}'));
      ch.sendToQueue(health, Buffer.from('{}'));
      await ch.waitForConfirms();
    } finally {
      await conn.close();
    }
    const now = await list(alice);
    expect(now.find((q) => q.queue === items)).to.deep.include({ consumerCount: 1 });
    expect(now.find((q) => q.queue === health)).to.deep.include({ consumerCount: 0, messageCount: 2 });
  });

  it('a DataReader sees only their own queues, an Admin every one; other roles and anonymous callers are refused', async () => {
    expect(await list(bob)).to.deep.equal([]);
    const bobs = await configure(ITEMS, {}, bob);
    expect((await list(bob)).map((q) => q.queue)).to.deep.equal([bobs]);
    const all = await list();
    expect(all.map((q) => q.user)).to.deep.equal(['alice', 'alice', 'bob']);
    const config = await userWithRole(app, 'carol', 'ConfigManager');
    expect((await app.request('GET', LIST, { auth: config })).status).to.equal(403);
    expect((await app.request('GET', LIST, { auth: null })).status).to.equal(401);
  });

  it('shows a queue the broker no longer has (expired unused) as ABSENT without counts', async () => {
    const q = await configure(ITEMS, { epc: 'ABCD' }, alice);
    const conn = await amqp.connect(AMQP_URL);
    try {
      await (await conn.createChannel()).deleteQueue(q);
    } finally {
      await conn.close();
    }
    expect((await list(alice)).find((x) => x.queue === q)).to.deep.include({ broker: 'ABSENT', messageCount: null, consumerCount: null });
    // The other queues are still counted after the broker refused the passive declare of this one.
    expect((await list(alice)).filter((x) => x.broker === 'DECLARED')).to.have.length(2);
  });

  it('deletes a queue: not listed, gone from the broker although consumed; others\' queues are not found', async () => {
    const [items] = (await list(alice)) as [Listed];
    const bobs = (await list(bob))[0]!.queue;
    expect((await app.request('DELETE', `/queues/v1/destroy/${bobs}`, { auth: alice })).status, 'another user\'s queue').to.equal(404);
    expect((await app.request('DELETE', '/queues/v1/destroy/not-a-queue', { auth: alice })).status).to.equal(404);
    expect((await app.request('DELETE', `/queues/v1/destroy/${items.queue}`, { auth: await userWithRole(app, 'dave', 'ConfigManager') })).status).to.equal(403);

    expect((await app.request('DELETE', `/queues/v1/destroy/${items.queue}`, { auth: alice })).status).to.equal(204);
    expect((await list(alice)).map((q) => q.queue)).not.to.include(items.queue);
    expect(await brokerHas(items.queue)).to.equal(false);
    expect((await app.request('DELETE', `/queues/v1/destroy/${items.queue}`, { auth: alice })).status, 'twice').to.equal(404);
    // An Admin deletes anyone's.
    expect((await app.request('DELETE', `/queues/v1/destroy/${bobs}`)).status).to.equal(204);
    expect(await list(bob)).to.deep.equal([]);
  });
});
