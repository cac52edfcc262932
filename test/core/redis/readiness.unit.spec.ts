// The read model gate on a Redis double: what it serves and what it refuses.
import { expect } from 'chai';
import { ApiError } from '../../../src/core/http/errors';
import { RedisKeys } from '../../../src/core/redis/keys';
import { ReadModelGate, type ReadinessRedis } from '../../../src/core/redis/readiness';
import { sleep } from '../../support/wait';

const keys = new RedisKeys('t:');

class FakeRedis implements ReadinessRedis {
  isReady = true;
  readonly strings = new Map<string, string>();
  readonly hashes = new Map<string, Map<string, string>>();
  get(key: string): Promise<string | null> {
    return Promise.resolve(this.strings.get(key) ?? null);
  }
  hmGet(key: string, fields: string[]): Promise<Array<string | null>> {
    return Promise.resolve(fields.map((f) => this.hashes.get(key)?.get(f) ?? null));
  }
  state(name: string, doc: object): void {
    const h = this.hashes.get(keys.readModelStates) ?? new Map<string, string>();
    h.set(name, JSON.stringify(doc));
    this.hashes.set(keys.readModelStates, h);
  }
}

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('served');
}

describe('ReadModelGate', () => {
  const since = '2026-01-01T00:00:00.000Z';
  const setup = () => {
    const redis = new FakeRedis();
    redis.strings.set(keys.generation, 'g1');
    redis.state('config', { state: 'ready', generation: 'g1', since });
    return { redis, gate: new ReadModelGate(redis, keys) };
  };

  it('serves a read model that is ready in the current generation', async () => {
    const { gate } = setup();
    expect(await gate.read('config', () => Promise.resolve('value'))).to.equal('value');
  });

  it('refuses with 503, Retry-After and the read model named when Redis lost the marker, the state is of another generation, or it is rebuilding', async () => {
    for (const change of [
      (r: FakeRedis) => r.strings.delete(keys.generation),
      (r: FakeRedis) => r.state('config', { state: 'ready', generation: 'g0', since }),
      (r: FakeRedis) => r.state('config', { state: 'rebuilding', generation: 'g1', since, events: 42 }),
      (r: FakeRedis) => r.hashes.clear(),
    ]) {
      const { redis, gate } = setup();
      change(redis);
      const err = await refusal(gate.read('config', () => Promise.resolve([])));
      expect(err.status).to.equal(503);
      expect(err.retryAfterSeconds).to.be.greaterThan(0);
      expect(err.message).to.match(/config/);
      expect(err.errors.map((e) => e.path)).to.deep.equal(['readModels.config']);
    }
  });

  it('refuses a read that the marker changed under (a loss between its first and last command)', async () => {
    const { redis, gate } = setup();
    const err = await refusal(gate.read('config', async () => {
      redis.strings.delete(keys.generation);
      return [];
    }));
    expect(err.status).to.equal(503);
  });

  it('refuses at once while Redis is not connected, and prefers "rebuilding" to a failing read', async () => {
    const { redis, gate } = setup();
    redis.isReady = false;
    expect((await refusal(gate.read('config', () => Promise.resolve(1)))).message).to.match(/Redis is not reachable/);
    redis.isReady = true;
    redis.strings.delete(keys.generation);
    expect((await refusal(gate.read('config', () => Promise.reject(new Error('half-built data'))))).status).to.equal(503);
  });

  it('names every read model that is not ready when a read needs several', async () => {
    const { redis, gate } = setup();
    redis.state('jobs', { state: 'rebuilding', generation: 'g1', since });
    const err = await refusal(gate.read(['config', 'jobs', 'items'], () => Promise.resolve(1)));
    expect(err.errors.map((e) => e.path)).to.deep.equal(['readModels.jobs', 'readModels.items']);
  });

  it('untilReady waits for a read model another process builds, saying once why it waits', async () => {
    const { redis, gate } = setup();
    redis.strings.delete(keys.generation);
    const said: string[] = [];
    let done = false;
    const waiting = gate.untilReady(['config'], 5, (why) => said.push(why)).then(() => (done = true));
    await sleep(30);
    expect(done).to.equal(false);
    redis.strings.set(keys.generation, 'g1');
    await waiting;
    expect(said).to.have.length(1);
    expect(said[0]).to.match(/config/);
  });
});
