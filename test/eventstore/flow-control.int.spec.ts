// Backpressure: a subscriber that stops reading must not make the server
// buffer the whole log in memory, and must still get every event, in order,
// once it reads again.
import { expect } from 'chai';
import { START, jsonEvent, type AllStreamResolvedEvent, type Position, type ResolvedEvent } from '@eventstore/db-client';
import { uniqueStream, uniqueToken, withEventStore } from '../support/eventstore';
import { comparePositions, lastAllPosition } from '../support/helpers';
import { sleep, withTimeout } from '../support/wait';

const TOTAL = 20_000;
const BATCH = 1_000;
const PAYLOAD = 'p'.repeat(440); // ~500 bytes of JSON per event
const HEAP_GROWTH_LIMIT = 100 * 1024 * 1024;

const memory = (): number => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

describe('event store contract: subscription flow control', function () {
  this.timeout(180_000);
  const fx = withEventStore();
  let stream: string;
  let startOfOurs: Position | typeof START;
  const ids: string[] = [];

  before(async function () {
    this.timeout(180_000);
    stream = uniqueStream(`flow-${uniqueToken().slice(0, 8)}`);
    startOfOurs = fx.store.embedded ? START : await lastAllPosition(fx.client);
    for (let b = 0; b < TOTAL / BATCH; b++) {
      const events = Array.from({ length: BATCH }, (_, i) =>
        jsonEvent({ type: 'FlowTest', data: { n: b * BATCH + i, payload: PAYLOAD } }),
      );
      ids.push(...events.map((e) => e.id));
      await fx.client.appendToStream(stream, events);
    }
  });

  interface Paused {
    received: number;
    growth: number;
  }

  /**
   * Consumes `sub` with a 'data' listener; after the first `pauseAfter`
   * events pauses it for `pauseMs`, measuring this process' memory (the
   * embedded server runs in it) across the pause.
   */
  async function consumeWithPause<E>(
    sub: { on(ev: 'data', l: (e: E) => void): unknown; on(ev: 'error', l: (e: Error) => void): unknown; pause(): unknown; resume(): unknown },
    sink: E[],
    pauseAfter: number,
    pauseMs: number,
  ): Promise<Paused> {
    let pausedResolve: (() => void) | undefined;
    const pausedAt = new Promise<void>((resolve) => (pausedResolve = resolve));
    let failed: Error | undefined;
    sub.on('error', (e: Error) => {
      failed = e;
    });
    sub.on('data', (e: E) => {
      sink.push(e);
      if (sink.length === pauseAfter) {
        sub.pause();
        pausedResolve?.();
      }
    });
    await withTimeout(pausedAt, 60_000, `the first ${pauseAfter} events`);
    const before = memory();
    let peak = before;
    const steps = Math.ceil(pauseMs / 100);
    for (let i = 0; i < steps; i++) {
      await sleep(100);
      peak = Math.max(peak, memory());
    }
    const received = sink.length;
    sub.resume();
    if (failed) throw failed;
    if (process.env['FLOW_DEBUG']) process.stderr.write(`paused: received=${received} growth=${peak - before}\n`);
    return { received, growth: peak - before };
  }

  it('subscribeToStream from START: a paused reader gets all events in order after resuming', async () => {
    const sink: ResolvedEvent[] = [];
    const sub = fx.client.subscribeToStream(stream, { fromRevision: START });
    try {
      const paused = await consumeWithPause(sub, sink, 100, 2_000);
      // While paused, only what fits in the client's buffers may arrive.
      expect(paused.received, 'events delivered while paused').to.be.lessThan(TOTAL);
      const deadline = Date.now() + 120_000;
      while (sink.length < TOTAL && Date.now() < deadline) await sleep(50);
      expect(sink.length).to.equal(TOTAL);
      for (let i = 0; i < TOTAL; i++) {
        if (sink[i]?.event?.revision !== BigInt(i)) expect.fail(`event ${i} has revision ${sink[i]?.event?.revision}`);
        if (sink[i]?.event?.id !== ids[i]) expect.fail(`event ${i} has the wrong id`);
      }
      if (fx.store.embedded) {
        expect(paused.growth, 'memory growth while paused (bytes)').to.be.lessThan(HEAP_GROWTH_LIMIT);
      }
    } finally {
      await sub.unsubscribe();
    }
  });

  it('subscribeToAll from START: a paused reader gets all events in order after resuming', async () => {
    const sink: AllStreamResolvedEvent[] = [];
    const sub = fx.client.subscribeToAll({ fromPosition: startOfOurs });
    try {
      const paused = await consumeWithPause(sub, sink, 100, 2_000);
      const ours = (): AllStreamResolvedEvent[] => sink.filter((e) => e.event?.streamId === stream);
      const deadline = Date.now() + 120_000;
      while (ours().length < TOTAL && Date.now() < deadline) await sleep(50);
      const mine = ours();
      expect(mine.length).to.equal(TOTAL);
      for (let i = 0; i < TOTAL; i++) {
        if (mine[i]?.event?.id !== ids[i]) expect.fail(`event ${i} has the wrong id`);
      }
      for (let i = 1; i < sink.length; i++) {
        if (comparePositions(sink[i - 1]!.event!.position, sink[i]!.event!.position) !== -1) {
          expect.fail(`$all positions not increasing at ${i}`);
        }
      }
      if (fx.store.embedded) {
        expect(paused.growth, 'memory growth while paused (bytes)').to.be.lessThan(HEAP_GROWTH_LIMIT);
      }
    } finally {
      await sub.unsubscribe();
    }
  });

  it('a for-await reader that is slow at first still gets every event once', async () => {
    const sub = fx.client.subscribeToStream(stream, { fromRevision: START });
    let count = 0;
    try {
      const run = async (): Promise<void> => {
        for await (const e of sub) {
          if (e.event?.revision !== BigInt(count)) expect.fail(`expected revision ${count}, got ${e.event?.revision}`);
          count++;
          if (count <= 20) await sleep(50);
          if (count === TOTAL) break;
        }
      };
      await withTimeout(run(), 120_000, 'all events through for-await');
      expect(count).to.equal(TOTAL);
    } finally {
      await sub.unsubscribe();
    }
  });
});
