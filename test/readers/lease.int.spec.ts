// Two readers-role processes never both connect to one reader: each link
// takes the reader's lease in Redis first; the second stands by, and takes
// the reader over once the first lets go. Real Redis (a key prefix of this
// run), a simulated LLRP reader on loopback; the links are built directly.
import { expect } from 'chai';
import { createClient } from 'redis';
import { loadConfigOrThrow } from '../../src/config';
import { RedisKeys } from '../../src/core/redis/keys';
import type { RedisClient } from '../../src/core/redis/connect';
import type { AppDeps } from '../../src/slice';
import { jobsForAgents } from '../../src/jobs/agents';
import { LlrpLink } from '../../src/readers/llrp-link';
import { DEFAULT_READERS_SETTINGS } from '../../src/readers/settings';
import { generateLayout } from '../../src/simulator/layout';
import { SimLlrpReader } from '../../src/simulator/llrp-reader';
import { World } from '../../src/simulator/world';
import { until } from './support';
import { silent } from '../support/logger';
import { sleep } from '../support/wait';

describe('readers: one process per reader (lease)', function () {
  this.timeout(60_000);
  const prefix = `tagtrail-test-${crypto.randomUUID()}:`;
  let redis: RedisClient;
  let sim: SimLlrpReader;
  const links: LlrpLink[] = [];

  before(async () => {
    redis = createClient({ url: loadConfigOrThrow({}).redisUrl }) as unknown as RedisClient;
    await redis.connect();
    const layout = generateLayout({ facility: 'DEFAULT', readers: 1, families: ['SPEEDWAY'], tags: 1, seed: 1, prefix: 'lease-' });
    sim = new SimLlrpReader({ reader: layout.readers[0] as never, world: World.random(layout, 1), seed: 1, t0: Date.now(), timeScale: 1, port: 0, log: silent });
    await sim.listen();
  });
  after(async () => {
    for (const l of links) await l.stop();
    await sim?.close();
    for await (const keys of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 100 })) if (keys.length) await redis.del(keys);
    await redis.quit();
  });

  it('the second link stands by while the first holds the reader, and takes over when it stops', async () => {
    // Only what a link uses while connecting and holding: Redis for the lease.
    const deps = { redis, keys: new RedisKeys(prefix), logger: silent } as unknown as AppDeps;
    const settings = { ...DEFAULT_READERS_SETTINGS, leaseMs: 1500, keepaliveMs: 1000 };
    const make = (): LlrpLink => {
      const link = new LlrpLink({ name: sim.name, host: '127.0.0.1', port: sim.port, tls: null }, { deps, jobs: jobsForAgents, settings, logger: silent, leaseKey: `${prefix}v1:readers:lease:${sim.name}` });
      links.push(link);
      link.start();
      return link;
    };
    const first = make();
    await until('first connected', async () => (first.state === 'connected' ? true : undefined));
    const second = make();
    await until('second standing by', async () => (second.state === 'standby' ? true : undefined));
    // It stays so over several lease periods: the holder renews.
    const deadline = Date.now() + 4000;
    while (Date.now() < deadline) {
      expect(second.state, 'never connects while the first holds the reader').to.equal('standby');
      await sleep(100);
    }
    await first.stop();
    links.splice(links.indexOf(first), 1);
    await until('second took over', async () => (second.state === 'connected' ? true : undefined), 15_000);
    expect(second.capabilities?.firmware).to.equal('7.6.1-sim');
  });
});
