// The Redis isolation guard (test/support/redis-key-guard.js, loaded for
// every run by .mocharc.json) must notice a command on a key outside the test
// namespace, in this process and in child processes, and leave the test
// namespace alone. The probes only read keys that do not exist.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createClient } from 'redis';
import { REPO_ROOT } from '../support/tagtrailProcess';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const guard = require('../support/redis-key-guard.js') as {
  take(pred: (v: { command: string; keys: string[] }) => boolean): Array<{ command: string; keys: string[] }>;
  keysOf(args: string[]): string[];
  DIR_VARIABLE: string;
};

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

describe('Redis isolation guard', function () {
  this.timeout(60_000);
  const probe = `tagtrail-guard-probe:${randomUUID()}`;
  const mine = `tagtrail-test-${randomUUID()}:`;
  const redis = createClient({ url: REDIS_URL });

  before(async () => {
    await redis.connect();
  });
  after(async () => {
    await redis.del(`${mine}k`);
    await redis.quit();
  });

  it('reads the keys of commands as Redis does: single, multi-key, scripts, scans, server-wide', () => {
    expect(guard.keysOf(['HSET', 'a', 'f', 'v'])).to.deep.equal(['a']);
    expect(guard.keysOf(['DEL', 'a', 'b'])).to.deep.equal(['a', 'b']);
    expect(guard.keysOf(['MSET', 'a', '1', 'b', '2'])).to.deep.equal(['a', 'b']);
    expect(guard.keysOf(['EVAL', 'return 1', '2', 'a', 'b', 'arg'])).to.deep.equal(['a', 'b']);
    expect(guard.keysOf(['XREAD', 'COUNT', '1', 'STREAMS', 'a', 'b', '0', '0'])).to.deep.equal(['a', 'b']);
    expect(guard.keysOf(['SCAN', '0', 'MATCH', 'p:*', 'COUNT', '10'])).to.deep.equal(['p:*']);
    expect(guard.keysOf(['SCAN', '0'])).to.deep.equal(['*']);
    expect(guard.keysOf(['FLUSHALL'])).to.deep.equal(['*']);
    expect(guard.keysOf(['PING'])).to.deep.equal([]);
  });

  it('records a command of this process on a key outside the namespace, plain, in MULTI and in a script', async () => {
    await redis.get(probe);
    await redis.multi().exists(probe).exec();
    await redis.eval('return 1', { keys: [probe] });
    await redis.get(`${mine}k`);
    await redis.set(`${mine}k`, '1');
    const seen = guard.take((v) => v.keys.includes(probe));
    expect(seen.map((v) => v.command)).to.deep.equal(['GET', 'EXISTS', 'EVAL']);
    expect(guard.take((v) => v.keys.some((k) => k.startsWith(mine)))).to.deep.equal([]);
  });

  it('records the commands of a child process of the run in its own file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tagtrail-guard-child-'));
    try {
      const script = `const { createClient } = require('redis');
        (async () => { const c = createClient({ url: ${JSON.stringify(REDIS_URL)} }); await c.connect(); await c.get(${JSON.stringify(probe)}); await c.quit(); })();`;
      await promisify(execFile)(process.execPath, ['-e', script], {
        cwd: REPO_ROOT,
        env: { ...process.env, [guard.DIR_VARIABLE]: dir, NODE_OPTIONS: `--require ${join(REPO_ROOT, 'test/support/redis-key-guard.js')}` },
      });
      const recorded = readdirSync(dir).flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { command: string; keys: string[] }));
      expect(recorded.map((v) => [v.command, v.keys])).to.deep.equal([['GET', [probe]]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
