// `npm run rebuild -- items` in-process against a running test app: the
// rebuilt items and history read models answer the queries exactly as the
// live ones did, the old and side-by-side keys are gone, events appended
// during the rebuild are not lost, and rebuilding again changes nothing.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { EventStoreDBClient } from '@eventstore/db-client';
import { createClient } from 'redis';
import type * as t from 'io-ts';
import { encodeEvent } from '../../src/core/events';
import { ENGINE_STREAM, itemEvents, type ItemChangeCodec } from '../../src/engine/events';
import { createLogger } from '../../src/core/logger';
import { RedisKeys } from '../../src/core/redis/keys';
import type { RedisClient } from '../../src/core/redis/connect';
import { itemKeys } from '../../src/items/keys';
import { itemsReadModel } from '../../projections/items/rebuild';
import { rebuildReadModel } from '../../projections/rebuild';
import { startTestApp, type TestApp } from '../support/app';
import { expectStatus } from '../readerconfigurations/e2e-support';
import { waitForValue } from '../support/wait';

type Change = t.TypeOf<typeof ItemChangeCodec>;
const ITEMS = '/data/v1/items/show';
const HISTORY = '/data/v1/items/show/history';
const T0 = Date.parse('2026-05-01T08:00:00.000Z');
const JOB = randomUUID();
const epc = (n: number): string => `E2801160600002${n.toString(16).toUpperCase().padStart(10, '0')}`;
const change = (over: Partial<Change> & Pick<Change, 'epc'>): Change => ({
  kind: 'FIRST_SEEN', tid: null, jobId: JOB, fromZone: 'ABSENT', toZone: 'Z1',
  fromFloor: null, toFloor: '1', fromFacility: null, toFacility: 'North', fromX: null, fromY: null, toX: 1, toY: 2,
  observationTime: T0, reportToDatabaseEnabled: true, reportToHistoryEnabled: true, reportToMessageQueueEnabled: true,
  ...over,
});

describe('rebuilding the items read model', function () {
  this.timeout(60_000);
  let app: TestApp;
  let client: EventStoreDBClient;
  let redis: RedisClient;
  let keys: RedisKeys;

  const append = async (changes: Change[]): Promise<void> => {
    await client.appendToStream(ENGINE_STREAM, [encodeEvent(itemEvents, { type: 'ItemsChanged', data: { inputPosition: '0', at: T0, changes } })]);
  };
  const get = async (path: string): Promise<any> => { // eslint-disable-line @typescript-eslint/no-explicit-any
    const res = await app.request('GET', `${path}?pageSize=1000`);
    expectStatus(res, 200);
    return res.body;
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const until = (path: string, test: (body: any) => boolean): Promise<any> => waitForValue(`GET ${path}`, () => get(path), test, { timeoutMs: 10_000 });
  const allKeys = async (): Promise<string[]> => {
    const out: string[] = [];
    for await (const ks of redis.scanIterator({ MATCH: `${app.keyPrefix}*`, COUNT: 1000 })) out.push(...ks);
    return out.sort();
  };
  const rebuild = () => rebuildReadModel({ model: itemsReadModel, client, redis, keys, logger: createLogger('test', { silent: true }), progressEveryMs: 20 });

  before(async () => {
    app = await startTestApp();
    client = EventStoreDBClient.connectionString(app.eventStoreConnectionString);
    redis = createClient({ url: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379' }) as RedisClient;
    await redis.connect();
    keys = new RedisKeys(app.keyPrefix);
    for (let b = 0; b < 20; b++) {
      await append(Array.from({ length: 25 }, (_, i) => change({ epc: epc(b * 25 + i), toZone: `Z${i % 4}`, observationTime: T0 + b * 1000 + i })));
    }
    await append(Array.from({ length: 50 }, (_, i) =>
      change({ kind: 'ZONE_CHANGE', epc: epc(i * 7), fromZone: `Z${(i * 7) % 25 % 4}`, fromFacility: 'North', fromFloor: '1', toZone: 'Z9', toFacility: 'South', observationTime: T0 + 60_000 + i })));
    await until(HISTORY, (b) => b.history.length === 550);
  });
  after(async () => {
    await redis?.quit();
    await client?.dispose();
    await app?.stop();
  });

  it('switches to a model rebuilt from the log that answers the same, removing the old keys', async () => {
    const items = await get(ITEMS);
    const history = await get(HISTORY);
    expect(items.items).to.have.length(500);
    // A stale key of the live model (an index set nothing points to any more) must go.
    const stale = itemKeys(keys).zone('Ghost');
    await redis.zAdd(stale, { score: 0, value: epc(1) });
    const result = await rebuild();
    expect(result.events).to.equal(21);
    const after = await allKeys();
    expect(after).not.to.include(stale);
    expect(after.filter((k) => k.includes('rebuild-'))).to.deep.equal([]);
    expect(await get(ITEMS)).to.deep.equal(items);
    expect(await get(HISTORY)).to.deep.equal(history);
  });

  it('keeps events appended during the rebuild, and the live projection goes on', async () => {
    const running = rebuild();
    await append([change({ kind: 'ZONE_CHANGE', epc: epc(3), fromZone: 'Z3', fromFacility: 'North', fromFloor: '1', toZone: 'Z8', observationTime: T0 + 120_000 })]);
    await running;
    await until(ITEMS, (b) => b.items.find((i: { epc: string }) => i.epc === epc(3))?.zone === 'Z8');
    await append([change({ kind: 'ZONE_CHANGE', epc: epc(4), fromZone: 'Z0', fromFacility: 'North', fromFloor: '1', toZone: 'Z7', observationTime: T0 + 121_000 })]);
    await until(ITEMS, (b) => b.items.find((i: { epc: string }) => i.epc === epc(4))?.zone === 'Z7');
    await until(HISTORY, (b) => b.history.length === 552);
  });

  it('changes nothing when run again', async () => {
    const before = { keys: await allKeys(), items: await get(ITEMS), history: await get(HISTORY) };
    const dump = async () => Promise.all(before.keys.filter((k) => k.includes(':items:')).map(async (k) =>
      [k, (await redis.type(k)) === 'hash' ? await redis.hGetAll(k) : await redis.zRangeWithScores(k, 0, -1)]));
    const dumped = await dump();
    await rebuild();
    await rebuild();
    expect(await allKeys()).to.deep.equal(before.keys);
    expect(await dump()).to.deep.equal(dumped);
    expect(await get(ITEMS)).to.deep.equal(before.items);
    expect(await get(HISTORY)).to.deep.equal(before.history);
  });
});
