// A Redis server of the test's own: a free port, a temporary directory, no
// persistence (like many deployments: a restart comes back empty). Tests that
// kill or empty Redis use it, never the machine's shared one.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { freePort } from '../../bench/support/ports';
import { sleep } from './wait';

export interface OwnRedis {
  readonly url: string;
  /** Starts the server (again, empty) on the same port; resolves once it answers PING. */
  start(): Promise<void>;
  /** Kills the server (SIGKILL: it keeps nothing). */
  kill(): Promise<void>;
  /** Whether the server runs (started and not killed). */
  readonly running: boolean;
  /** Kills it and removes its directory. */
  close(): Promise<void>;
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'tagtrail-redis-'));
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const own: OwnRedis = {
    url,
    get running() {
      return child !== undefined && child.exitCode === null;
    },
    async start() {
      child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      const deadline = Date.now() + 10_000;
      for (;;) {
        const probe = createClient({ url, socket: { reconnectStrategy: false } });
        probe.on('error', () => undefined);
        try {
          await probe.connect();
          await probe.ping();
          await probe.close();
          return;
        } catch (err) {
          probe.destroy();
          if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not start`, { cause: err });
          await sleep(50);
        }
      }
    },
    async kill() {
      const c = child;
      child = undefined;
      if (!c || c.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        c.once('exit', () => resolve());
        c.kill('SIGKILL');
      });
    },
    async close() {
      await own.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await own.start();
  return own;
}
