// A checkpoint store that forgets (Redis lost its data) must not send a
// subscription whose work is seen outside back to the start of the log.
import { expect } from 'chai';
import { InMemoryCheckpointStore, rememberingSaves } from '../../../src/core/subscriptions';

const at = (n: number) => ({ commit: BigInt(n), prepare: BigInt(n) });

describe('rememberingSaves', () => {
  it('loads what the store holds, or what this process saved when the store forgot it or holds less', async () => {
    let backing = new InMemoryCheckpointStore();
    const store = rememberingSaves({ load: (n) => backing.load(n), save: (n, p) => backing.save(n, p) });
    expect(await store.load('relay')).to.equal(undefined);
    await store.save('relay', at(10));
    await store.save('relay', at(20));
    expect(await store.load('relay')).to.deep.equal(at(20));
    backing = new InMemoryCheckpointStore(); // Redis came back empty
    expect(await store.load('relay')).to.deep.equal(at(20));
    await backing.save('relay', at(30)); // another process went further
    expect(await store.load('relay')).to.deep.equal(at(30));
    expect(await store.load('other')).to.equal(undefined);
  });

  it('remembers only saves that succeeded', async () => {
    const store = rememberingSaves({ load: () => Promise.resolve(undefined), save: () => Promise.reject(new Error('Redis away')) });
    await store.save('relay', at(5)).catch(() => undefined);
    expect(await store.load('relay')).to.equal(undefined);
  });
});
