import { expect } from 'chai';
import type { Position } from '@eventstore/db-client';
import { Checkpointer } from '../../../src/core/subscriptions/checkpointer';
import { InMemoryCheckpointStore } from '../../../src/core/subscriptions/checkpoint-store';
import { createLogger } from '../../../src/core/logger';
import { sleep } from '../../support/wait';

const pos = (n: number): Position => ({ commit: BigInt(n), prepare: BigInt(n) });

describe('core/subscriptions Checkpointer', () => {
  const logger = createLogger('test');

  it('saves once N events were handled, not before', async () => {
    const store = new InMemoryCheckpointStore();
    const cp = new Checkpointer(store, 's', { events: 3, ms: 60_000 }, logger);
    await cp.load();
    cp.advance(pos(1), 1, false);
    cp.advance(pos(2), 1, false);
    expect(cp.isDue()).to.equal(false);
    cp.advance(pos(3), 1, false);
    expect(cp.isDue()).to.equal(true);
    await cp.flush();
    expect(await store.load('s')).to.deep.equal(pos(3));
    expect(cp.isDue()).to.equal(false);
  });

  it('saves pending progress once T ms passed', async () => {
    const store = new InMemoryCheckpointStore();
    const cp = new Checkpointer(store, 's', { events: 1000, ms: 30 }, logger);
    await cp.load();
    await cp.flush(); // nothing pending: no save
    expect(await store.load('s')).to.equal(undefined);
    cp.advance(pos(5), 1, false);
    await cp.flush();
    cp.advance(pos(6), 1, false);
    expect(cp.isDue()).to.equal(false);
    expect(cp.msUntilDue()).to.be.greaterThan(0);
    await sleep(40);
    expect(cp.isDue()).to.equal(true);
  });

  it('never moves backwards and treats handler-persisted positions as saved', async () => {
    const store = new InMemoryCheckpointStore();
    await store.save('s', pos(10));
    const cp = new Checkpointer(store, 's', { events: 1 }, logger);
    expect(await cp.load()).to.deep.equal(pos(10));
    cp.advance(pos(9), 1, false);
    expect(cp.isDue()).to.equal(false);
    cp.advance(pos(12), 1, true); // handler wrote it in its own transaction
    expect(cp.isDue()).to.equal(false);
    cp.advance(pos(11), 1, false);
    expect(cp.isDue()).to.equal(false);
    cp.advance(pos(13), 1, false);
    await cp.flush();
    expect(await store.load('s')).to.deep.equal(pos(13));
  });

  it('hurry makes pending progress due at once', async () => {
    const cp = new Checkpointer(new InMemoryCheckpointStore(), 's', { events: 100, ms: 60_000 }, logger);
    await cp.load();
    cp.advance(pos(1), 1, false);
    await cp.flush();
    cp.advance(pos(2), 1, false);
    expect(cp.isDue()).to.equal(false);
    cp.hurry();
    expect(cp.isDue()).to.equal(true);
  });
});
