// The items projection's coalescing (projections/items/fold.ts): an item
// changed many times within one event and one batch is written once, in its
// last state, and only the index sets it leaves or joins are touched. Whatever
// the batches, the read model must equal applying every change one at a time,
// which this test computes in memory from the same log and compares key by
// key with what the projection left in Redis.
import { expect } from 'chai';
import type * as t from 'io-ts';
import { createClient } from 'redis';
import { encodeEvent } from '../../src/core/events';
import { RedisKeys } from '../../src/core/redis/keys';
import type { RedisClient } from '../../src/core/redis/connect';
import { ENGINE_STREAM, itemEvents, type ItemChangeCodec } from '../../src/engine/events';
import { startItemsProjection } from '../../projections/items/projection';
import { changeOrder, commitOrder, historyRecordOf, itemAfter, keptInHistory } from '../../src/items/model';
import { encodeStoredItem, type StoredItem } from '../../src/items/stored-item';
import { historyId, itemKeys } from '../../src/items/keys';
import { startTestEventStore, testLogger, type TestEventStore } from '../support/eventstore';
import { removeRedisKeys, testRedisPrefix } from '../support/redis-prefix';

type Change = t.TypeOf<typeof ItemChangeCodec>;
type Snapshot = Record<string, Record<string, string> | Array<{ value: string; score: number }>>;

const T0 = Date.parse('2026-05-01T08:00:00.000Z');
const EPCS = Array.from({ length: 40 }, (_, i) => `E2801160600002${i.toString(16).toUpperCase().padStart(10, '0')}`);
const ZONES = ['Z1', 'Z2', 'Z3', 'FACILITY'];
const FACILITIES = ['North', 'South', null];
const JOBS = ['job-a', 'job-b'];

/** A deterministic pseudo-random sequence (the same log on every run). */
function lcg(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    // The high bits: the low ones of this generator repeat with a short period.
    return Math.floor((s / 2147483648) * n);
  };
}

/** `events` ItemsChanged payloads of 1–30 changes over a few EPCs: every EPC changes many times, often within one event. */
function randomLog(events: number): Change[][] {
  const next = lcg(7);
  const pick = <T>(xs: readonly T[]): T => xs[next(xs.length)]!;
  const where = new Map<string, { zone: string; facility: string | null }>();
  let time = T0;
  return Array.from({ length: events }, () =>
    Array.from({ length: 1 + next(30) }, (): Change => {
      const epc = pick(EPCS.slice(0, 10 + next(30)));
      const from = where.get(epc);
      const expired = from !== undefined && from.zone !== 'ABSENT' && next(6) === 0;
      const to = expired ? { zone: 'ABSENT', facility: from.facility } : { zone: pick(ZONES), facility: pick(FACILITIES) };
      const kind = from === undefined || from.zone === 'ABSENT' ? 'FIRST_SEEN' : expired ? 'EXPIRED' : pick(['ZONE_CHANGE', 'MOVED', 'HEARTBEAT'] as const);
      where.set(epc, to);
      time += 1 + next(500);
      const located = !expired && next(2) === 0;
      return {
        kind, epc: next(3) === 0 ? epc.toLowerCase() : epc, tid: next(2) === 0 ? null : `T${epc.slice(-4)}`, jobId: pick(JOBS),
        fromZone: from?.zone ?? 'ABSENT', toZone: to.zone, fromFloor: null, toFloor: located ? '1' : null,
        fromFacility: from?.facility ?? null, toFacility: to.facility, fromX: null, fromY: null,
        toX: located ? next(100) : null, toY: located ? next(100) : null, observationTime: time,
        reportToDatabaseEnabled: next(10) !== 0, reportToHistoryEnabled: next(2) === 0, reportToMessageQueueEnabled: false,
      };
    }),
  );
}

/** The read model after applying each change of `log` (at its commit position) one at a time. */
function appliedOneByOne(log: ReadonlyArray<{ changes: Change[]; commit: bigint; id: string }>, keys: RedisKeys): Snapshot {
  const k = itemKeys(keys);
  const items = new Map<string, StoredItem>();
  const history: Record<string, string> = {};
  for (const { changes, commit, id } of log) {
    changes.forEach((c, i) => {
      if (c.reportToDatabaseEnabled) items.set(c.epc.toUpperCase(), { item: itemAfter(c), ms: c.observationTime, at: changeOrder(commitOrder(commit), i) });
      if (c.reportToHistoryEnabled && keptInHistory(c.kind)) history[historyId(c.observationTime, id, i)] = JSON.stringify(historyRecordOf(c));
    });
  }
  const sets = new Map<string, Array<{ value: string; score: number }>>();
  const add = (key: string, value: string, score = 0): void => void (sets.get(key) ?? sets.set(key, []).get(key)!).push({ value, score });
  for (const [epc, { item, ms }] of items) {
    add(k.all, epc);
    add(k.time, epc, ms);
    if (item.facility !== null) add(k.facility(item.facility), epc);
    add(k.zone(item.zone), epc);
    add(k.job(item.jobId), epc);
  }
  for (const id of Object.keys(history)) add(k.history, id);
  const out: Snapshot = { [k.item]: Object.fromEntries([...items].map(([epc, s]) => [epc, encodeStoredItem(s)])), [k.historyRecord]: history };
  for (const [key, members] of sets) out[key] = members.sort((a, b) => a.score - b.score || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  return out;
}

describe('items projection: coalesced batches', function () {
  this.timeout(60_000);
  let store: TestEventStore;
  let redis: RedisClient;
  const prefix = testRedisPrefix();

  before(async () => {
    store = await startTestEventStore();
    redis = createClient({ url: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379' }) as RedisClient;
    await redis.connect();
  });
  after(async () => {
    await redis?.quit();
    await removeRedisKeys(prefix);
    await store?.close();
  });

  const snapshot = async (keys: RedisKeys): Promise<Snapshot> => {
    const out: Snapshot = {};
    for await (const batch of redis.scanIterator({ MATCH: itemKeys(keys).pattern, COUNT: 500 })) {
      for (const key of batch) out[key] = (await redis.type(key)) === 'hash' ? await redis.hGetAll(key) : await redis.zRangeWithScores(key, 0, -1);
    }
    return out;
  };

  it('given items changed many times within events and batches, then the read model equals applying each change one at a time', async () => {
    const log: Array<{ changes: Change[]; commit: bigint; id: string }> = [];
    // 70 events: several batches of the projection, with items read back from earlier (and queued) batches.
    for (const changes of randomLog(70)) {
      const event = encodeEvent(itemEvents, { type: 'ItemsChanged', data: { inputPosition: '0', at: T0, changes } });
      const { position } = await store.client.appendToStream(ENGINE_STREAM, [event]);
      if (position === undefined) throw new Error('append without a position');
      log.push({ changes, commit: position.commit, id: event.id });
    }
    const keys = new RedisKeys(`${prefix}fold:`);
    const sub = startItemsProjection({ client: store.client, redis, keys, logger: testLogger('items') });
    await sub.caughtUp;
    await sub.stop();

    const expected = appliedOneByOne(log, keys);
    const k = itemKeys(keys);
    expect(Object.keys(expected[k.item]!).length, 'items of the log').to.be.greaterThan(30);
    expect(Object.keys(expected).filter((key) => key.startsWith(k.zone(''))).length, 'zones in use').to.equal(ZONES.length + 1);
    expect(await snapshot(keys)).to.deep.equal(expected);
  });
});
