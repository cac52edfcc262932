import { expect } from 'chai';
import { RedisCheckpointStore } from '../../../src/core/subscriptions/redis-checkpoint-store';
import { withRedis } from './redis';

describe('core/subscriptions RedisCheckpointStore', () => {
  const redis = withRedis();

  it('loads undefined before the first save, then what was saved (64-bit exact, as strings)', async () => {
    const store = new RedisCheckpointStore(redis.client, redis.prefix);
    expect(await store.load('items')).to.equal(undefined);
    const big = { commit: 2n ** 63n - 2n, prepare: 2n ** 62n + 1n };
    await store.save('items', big);
    expect(await store.load('items')).to.deep.equal(big);
    expect(await redis.client.hGetAll(store.key('items'))).to.deep.equal({
      commit: big.commit.toString(),
      prepare: big.prepare.toString(),
    });
    expect(store.key('items')).to.equal(`${redis.prefix}items`);
  });

  it('writes the checkpoint inside the caller\'s MULTI', async () => {
    const store = new RedisCheckpointStore(redis.client, redis.prefix);
    const tx = redis.client.multi().set(`${redis.prefix}readmodel`, 'v1');
    store.saveInTransaction(tx, 'projection', { commit: 7n, prepare: 7n });
    await tx.exec();
    expect(await store.load('projection')).to.deep.equal({ commit: 7n, prepare: 7n });
  });

  it('refuses a corrupt checkpoint rather than restarting from the beginning', async () => {
    const store = new RedisCheckpointStore(redis.client, redis.prefix);
    await redis.client.hSet(store.key('broken'), { commit: 'x' });
    const err = await store.load('broken').catch((e: unknown) => e);
    expect(err).to.be.instanceOf(Error);
    expect((err as Error).message).to.contain('corrupt checkpoint');
  });
});
