import { expect } from 'chai';
import { jsonEvent, streamNameFilter, type Position } from '@eventstore/db-client';
import { encodeEvent, type MalformedEventError, type RecordedDomainEvent } from '../../../src/core/events';
import { runCommand } from '../../../src/core/command';
import { RedisCheckpointStore } from '../../../src/core/subscriptions/redis-checkpoint-store';
import { runSubscription, type RunSubscriptionOptions } from '../../../src/core/subscriptions/run-subscription';
import { isAfter } from '../../../src/core/subscriptions/position';
import { testLogger, uniqueToken, withEventStore } from '../../support/eventstore';
import { counterEvents, onCounter, type CounterEvent } from '../toy-counter';
import { withRedis } from './redis';
import { appendIncrements, until } from './support';
import { sleep, withTimeout } from '../../support/wait';

type Seen = RecordedDomainEvent<CounterEvent>;

/** A handler that records the events of streams starting with `prefix` (the store is shared by the tests). */
function recorder(prefix: string) {
  const seen: Seen[] = [];
  const handler = async (events: ReadonlyArray<Seen>): Promise<void> => {
    for (const e of events) if (e.streamId.startsWith(prefix)) seen.push(e);
  };
  return { seen, handler };
}

describe('core/subscriptions runSubscription against the event store and Redis', function () {
  this.timeout(60_000);
  const es = withEventStore();
  const redis = withRedis();
  const logger = testLogger('subscription');
  const base = (name: string): Omit<RunSubscriptionOptions<typeof counterEvents>, 'handler'> => ({
    client: es.client,
    name,
    codecs: counterEvents,
    checkpointStore: new RedisCheckpointStore(redis.client, redis.prefix),
    logger,
    retry: { initialMs: 20, maxMs: 200 },
  });

  it('resumes from its Redis checkpoint: only the new events, no duplicate, no gap', async () => {
    const token = uniqueToken();
    const stream = `ctr${token}-a`;
    const first = await appendIncrements(es.client, stream, [1, 2, 3, 4, 5]);
    const r1 = recorder(stream);
    // Saves are throttled far beyond the test: only stop() can have saved.
    const opts = { ...base(`resume-${token}`), checkpointEvery: { events: 1000, ms: 60_000 } };
    const sub1 = runSubscription({ ...opts, handler: r1.handler });
    await withTimeout(sub1.caughtUp, 20_000, 'first catch-up');
    expect(r1.seen.map((e) => e.id)).to.deep.equal(first.map((e) => e.id));
    await sub1.stop();
    const saved = await opts.checkpointStore.load(opts.name);
    expect(saved).to.deep.equal(sub1.position);
    expect(saved && !isAfter(first[4]!.position, saved)).to.equal(true);

    const second = await appendIncrements(es.client, stream, [6, 7, 8]);
    const r2 = recorder(stream);
    const sub2 = runSubscription({ ...opts, handler: r2.handler });
    await withTimeout(sub2.caughtUp, 20_000, 'second catch-up');
    await sub2.stop();
    expect(r2.seen.map((e) => e.id)).to.deep.equal(second.map((e) => e.id));
    expect(r2.seen.map((e) => e.type === 'CounterIncremented' && e.data.by)).to.deep.equal([6, 7, 8]);
  });

  it('delivers live events after catching up and lets a writer wait for its position', async () => {
    const token = uniqueToken();
    const stream = `ctr${token}-live`;
    const r = recorder(stream);
    let caughtUpCalls = 0;
    const sub = runSubscription({ ...base(`live-${token}`), handler: r.handler, onCaughtUp: () => caughtUpCalls++ });
    await withTimeout(sub.caughtUp, 20_000, 'catch-up');
    expect(caughtUpCalls).to.equal(1);
    const result = await runCommand(es.client, onCounter(stream), { type: 'OpenCounter', name: 'live' });
    if (result._tag !== 'Right' || !result.right.position) return expect.fail('command failed');
    expect(await sub.waitForPosition(result.right.position, 10_000)).to.equal(true);
    expect(r.seen.map((e) => e.type)).to.deep.equal(['CounterOpened']);
    await sub.stop();
  });

  it('advances a filtered subscription over non-matching events through server checkpoints', async () => {
    const token = uniqueToken();
    const matching = `flt${token}-1`;
    const [only] = await appendIncrements(es.client, matching, [1]);
    // 70 events the filter skips: more than two checkpoint windows (32 each).
    const noise = Array.from({ length: 70 }, () => encodeEvent(counterEvents, { type: 'CounterIncremented', data: { by: 0 } }));
    const last = await es.client.appendToStream(`noise${token}-1`, noise);
    const r = recorder('');
    const opts = {
      ...base(`filtered-${token}`),
      filter: streamNameFilter({ prefixes: [`flt${token}-`], checkpointInterval: 1 }),
      checkpointEvery: { events: 1000, ms: 60_000 },
    };
    const sub = runSubscription({ ...opts, handler: r.handler });
    await withTimeout(sub.caughtUp, 20_000, 'catch-up');
    await until('a checkpoint past the matching event', () => sub.position !== undefined && isAfter(sub.position, only!.position));
    await sub.stop();
    expect(r.seen.map((e) => e.streamId)).to.deep.equal([matching]);
    const saved = await opts.checkpointStore.load(opts.name);
    expect(saved && isAfter(saved, only!.position)).to.equal(true, 'checkpoint did not pass the matching event');
    expect(saved && !isAfter(saved, last.position!)).to.equal(true, 'checkpoint beyond the log');
  });

  it('lets the handler own its checkpoint in the same Redis transaction as its read model (exactly once)', async () => {
    const token = uniqueToken();
    const stream = `ctr${token}-own`;
    const name = `owned-${token}`;
    const store = new RedisCheckpointStore(redis.client, redis.prefix);
    const totalKey = `${redis.prefix}total-${token}`;
    const handler = async (events: ReadonlyArray<Seen>, position: Position): Promise<void> => {
      const tx = redis.client.multi();
      for (const e of events) if (e.streamId === stream && e.type === 'CounterIncremented') tx.incrBy(totalKey, e.data.by);
      store.saveInTransaction(tx, name, position);
      await tx.exec();
    };
    const opts = { ...base(name), checkpointStore: store, checkpointMode: 'handler' as const, maxBatchSize: 2, handler };
    await appendIncrements(es.client, stream, [1, 2, 3]);
    const sub1 = runSubscription(opts);
    await withTimeout(sub1.caughtUp, 20_000, 'first catch-up');
    await sub1.stop();
    expect(await redis.client.get(totalKey)).to.equal('6');
    await appendIncrements(es.client, stream, [4, 5]);
    const sub2 = runSubscription(opts);
    await withTimeout(sub2.caughtUp, 20_000, 'second catch-up');
    await sub2.stop();
    expect(await redis.client.get(totalKey)).to.equal('15');
    expect(await store.load(name)).to.deep.equal(sub2.position);
  });

  it('reports a malformed event with stream and revision and goes on', async () => {
    const token = uniqueToken();
    const stream = `ctr${token}-bad`;
    await es.client.appendToStream(stream, jsonEvent({ type: 'CounterIncremented', data: { by: 'x' } }));
    const [good] = await appendIncrements(es.client, stream, [2]);
    const malformed: MalformedEventError[] = [];
    const r = recorder(stream);
    const sub = runSubscription({
      ...base(`malformed-${token}`),
      handler: r.handler,
      onMalformed: (e) => void (e.streamId === stream && malformed.push(e)),
    });
    await withTimeout(sub.caughtUp, 20_000, 'catch-up');
    await sub.stop();
    expect(malformed.map((e) => [e.streamId, e.revision, e.eventType])).to.deep.equal([[stream, 0n, 'CounterIncremented']]);
    expect(malformed[0]?.errors[0]?.path).to.equal('data.by');
    expect(r.seen.map((e) => e.id)).to.deep.equal([good!.id]);
  });

  it('retries a failed handler from the last handled position', async () => {
    const token = uniqueToken();
    const stream = `ctr${token}-retry`;
    const appended = await appendIncrements(es.client, stream, [1, 2, 3]);
    const handled: string[] = [];
    let failures = 0;
    const sub = runSubscription({
      ...base(`retry-${token}`),
      maxBatchSize: 1,
      handler: async (events) => {
        const ours = events.filter((e) => e.streamId === stream);
        if (ours.some((e) => e.type === 'CounterIncremented' && e.data.by === 2) && failures++ < 2) {
          throw new Error('read model unavailable');
        }
        handled.push(...ours.map((e) => e.id));
      },
    });
    await withTimeout(sub.caughtUp, 20_000, 'catch-up');
    await sub.stop();
    expect(failures).to.equal(3);
    expect(handled).to.deep.equal(appended.map((e) => e.id));
  });
  it('moves its position only when a pipelined write commits, and resumes after the last committed one when a write fails', async () => {
    const token = uniqueToken();
    const stream = `ctr${token}-pipelined`;
    const appended = await appendIncrements(es.client, stream, [1, 2, 3, 4]);
    // Each batch's write is held until the test releases it; the write of `by: 2` fails the first time.
    const writes: Array<{ by: number; release: () => void; fail: (e: Error) => void }> = [];
    const committed: number[] = [];
    const sub = runSubscription({
      ...base(`pipelined-${token}`),
      maxBatchSize: 1,
      maxPendingWrites: 2,
      handler: async (events) => {
        const ours = events.filter((e) => e.streamId === stream);
        if (ours.length === 0) return;
        const by = ours[0]!.type === 'CounterIncremented' ? ours[0]!.data.by : 0;
        let release: () => void = () => undefined;
        let fail: (e: Error) => void = () => undefined;
        const write = new Promise<void>((res, rej) => ((release = res), (fail = rej)));
        writes.push({ by, release, fail });
        return { committed: write.then(() => void committed.push(by)) };
      },
    });
    // Two writes in flight, none committed: the position stays before the first.
    await until('two pending writes', () => writes.length === 2);
    await new Promise((r) => setTimeout(r, 100));
    expect(writes.map((w) => w.by)).to.deep.equal([1, 2]);
    expect(sub.position === undefined || !isAfter(sub.position, appended[0]!.position)).to.equal(true);
    expect(await sub.waitForPosition(appended[0]!.position, 50)).to.equal(false);
    // The first commits: the position reaches it; the second fails, so the third (sent meanwhile) never counts.
    writes[0]!.release();
    expect(await sub.waitForPosition(appended[0]!.position, 5000)).to.equal(true);
    await until('third write', () => writes.length === 3);
    writes[1]!.fail(new Error('write lost'));
    writes[2]!.release();
    // Resumed after the first: 2, 3 and 4 are handed over again and commit.
    await until('resumed', () => writes.length >= 4 && writes[3]!.by === 2);
    for (;;) {
      const open = writes.slice(3);
      open.forEach((w) => w.release());
      if (await sub.waitForPosition(appended[3]!.position, 200)) break;
    }
    await sub.stop();
    expect(writes.map((w) => w.by)).to.deep.equal([1, 2, 3, 2, 3, 4]);
    // 2 committed once (on the second try); the position ends at the last event.
    expect(committed.filter((by) => by === 2)).to.deep.equal([2]);
    expect(sub.position && !isAfter(appended[3]!.position, sub.position)).to.equal(true);
  });
});

describe('core/subscriptions runSubscription checkpoint ordering under backpressure', function () {
  this.timeout(60_000);
  const es = withEventStore();

  it('never saves a checkpoint past an event its handler has not finished', async () => {
    const token = uniqueToken();
    const prefix = `ord${token}-`;
    // 3000 events, one in three matching; a slow handler and a small queue make
    // the feed pause, so filter checkpoints arrive while events still wait in
    // the client's buffer: the case where a naive checkpoint would skip them.
    const expected: string[] = [];
    for (let batch = 0; batch < 30; batch++) {
      const events = Array.from({ length: 100 }, () => encodeEvent(counterEvents, { type: 'CounterIncremented', data: { by: 1 } }));
      const stream = batch % 3 === 0 ? `${prefix}${batch}` : `skip${token}-${batch}`;
      await es.client.appendToStream(stream, events);
      if (stream.startsWith(prefix)) expected.push(...events.map((e) => e.id));
    }
    // Positions of the matching events, read back from the store.
    const positions = new Map<string, Position>();
    for await (const r of es.client.readAll()) {
      if (r.event && r.event.streamId.startsWith(prefix)) positions.set(r.event.id, r.event.position);
    }
    const handled = new Set<string>();
    const violations: string[] = [];
    const saves: Position[] = [];
    const store = {
      load: () => Promise.resolve(undefined),
      save: (_name: string, p: Position) => {
        saves.push(p);
        for (const id of expected) {
          const at = positions.get(id);
          if (at && !isAfter(at, p) && !handled.has(id)) violations.push(`${id}@${at.commit} before save ${p.commit}`);
        }
        return Promise.resolve();
      },
    };
    const sub = runSubscription({
      client: es.client,
      name: `order-${token}`,
      codecs: counterEvents,
      filter: streamNameFilter({ prefixes: [prefix], checkpointInterval: 1 }),
      checkpointStore: store,
      checkpointEvery: { events: 1, ms: 1 },
      maxBatchSize: 10,
      maxQueued: 20,
      logger: testLogger('subscription'),
      handler: async (events) => {
        await sleep(2);
        for (const e of events) handled.add(e.id);
      },
    });
    await withTimeout(sub.caughtUp, 40_000, 'catch-up');
    await sub.stop();
    expect(handled.size).to.equal(expected.length);
    expect(violations.slice(0, 5)).to.deep.equal([]);
    expect(saves.length).to.be.greaterThan(10);
  });
});
