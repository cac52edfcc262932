import { expect } from 'chai';
import type { Position } from '@eventstore/db-client';
import { silent } from '../support/logger';
import { ConfirmedCheckpoints } from '../../src/queues/committer';
import { sleep } from '../support/wait';

const pos = (n: number): Position => ({ commit: BigInt(n), prepare: BigInt(n) });
const deferred = () => {
  let resolve: () => void = () => undefined;
  let reject: (e: Error) => void = () => undefined;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
};

/** The saves a committer made, newest last, with whether each covered messages not covered before. */
const recordingStore = (before: () => Promise<void> = () => Promise.resolve()) => {
  const saves: Array<{ commit: bigint; published: boolean }> = [];
  return {
    saves,
    last: (): bigint | undefined => saves.at(-1)?.commit,
    save: async (p: Position, published: boolean): Promise<void> => {
      await before();
      saves.push({ commit: p.commit, published });
    },
  };
};

describe('queues: checkpoints saved only after confirms, in log order', () => {
  it('a position is saved once its batch and every earlier batch are confirmed', async () => {
    const store = recordingStore();
    const c = new ConfirmedCheckpoints(store, silent, () => undefined);
    const a = deferred();
    const b = deferred();
    c.enqueue(0, pos(10), a.promise);
    c.enqueue(0, pos(20), b.promise);
    c.enqueue(0, pos(25)); // a position the handler never saw
    b.resolve(); // the later batch confirmed first
    await sleep(10);
    expect(store.last()).to.equal(undefined);
    a.resolve();
    await c.settled();
    expect(store.last()).to.equal(25n);
    expect(c.pending()).to.equal(0);
  });

  it('a failed confirmation reports once and nothing after it is saved in that generation, even confirmed batches', async () => {
    const store = recordingStore();
    const failures: unknown[] = [];
    const c = new ConfirmedCheckpoints(store, silent, (e) => failures.push(e));
    const a = deferred();
    const b = deferred();
    const d = deferred();
    c.enqueue(0, pos(10), a.promise);
    c.enqueue(0, pos(20), b.promise);
    c.enqueue(0, pos(30), d.promise);
    a.resolve();
    b.reject(new Error('channel closed'));
    d.resolve(); // confirmed, but after a batch that was not: must not be saved
    await sleep(10);
    expect(failures).to.have.length(1);
    const g = c.newGeneration();
    await c.settled();
    expect(store.last(), 'only the confirmed batch').to.equal(10n);
    c.enqueue(0, pos(40)); // from the ended generation: dropped
    c.enqueue(g, pos(50));
    await c.settled();
    expect(store.last()).to.equal(50n);
  });

  it('room() frees up as soon as any batch of the window is answered, before the checkpoints are saved', async () => {
    let release: () => void = () => undefined;
    const slowSave = new Promise<void>((r) => (release = r));
    const store = recordingStore(() => slowSave);
    const c = new ConfirmedCheckpoints(store, silent, () => undefined);
    const a = deferred();
    const b = deferred();
    c.enqueue(0, pos(10), a.promise);
    c.enqueue(0, pos(20), b.promise);
    let free = false;
    const room = c.room(0, { batches: 2, messages: 1000 }).then(() => (free = true));
    await sleep(10);
    expect(free, 'two of two in flight').to.equal(false);
    b.resolve(); // the later one: its checkpoint still waits for a, but the window has room
    await room;
    expect(c.pending()).to.equal(1);
    expect(store.last()).to.equal(undefined);
    a.resolve();
    release();
    await c.settled();
    expect(store.last()).to.equal(20n);
  });

  it('a position whose successor is confirmed already is not written (one Redis write for a run of confirmed batches)', async () => {
    const store = recordingStore();
    const saved = store.saves;
    const c = new ConfirmedCheckpoints(store, silent, () => undefined);
    const a = deferred();
    const b = deferred();
    const d = deferred();
    c.enqueue(0, pos(10), a.promise);
    c.enqueue(0, pos(20), b.promise);
    c.enqueue(0, pos(30), d.promise);
    b.resolve();
    a.resolve();
    await sleep(10);
    expect(saved.map((x) => x.commit), 'd still waits: 20 is written').to.deep.equal([20n]);
    d.resolve();
    await c.settled();
    expect(saved.map((x) => x.commit)).to.deep.equal([20n, 30n]);
  });

  it('a save says whether it covers messages: also those of a batch whose own save it replaced', async () => {
    const store = recordingStore();
    const c = new ConfirmedCheckpoints(store, silent, () => undefined);
    const a = deferred();
    const b = deferred();
    c.enqueue(0, pos(10), a.promise, 3);
    c.enqueue(0, pos(20), b.promise, 0);
    b.resolve();
    a.resolve(); // 10 is not written (20 follows, confirmed): 20 covers its 3 messages
    await c.settled();
    c.enqueue(0, pos(30)); // a filter checkpoint: no message
    await c.settled();
    expect(store.saves).to.deep.equal([
      { commit: 20n, published: true },
      { commit: 30n, published: false },
    ]);
  });
});
