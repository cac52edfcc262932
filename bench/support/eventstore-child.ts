// The event store a benchmark runs against: the embedded store in a child
// process on a temp dir (so it gets a core of its own), unless
// EVENTSTORE_CONNECTION_STRING names another one.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** `pid`: the child's, for CPU figures (none for an external store). */
export async function startServer(): Promise<{ conn: string; pid?: number; stop(): Promise<void> }> {
  const external = process.env['EVENTSTORE_CONNECTION_STRING'];
  if (external) return { conn: external, stop: async () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'tagtrail-bench-'));
  const child: ChildProcess = spawn(process.execPath, ['--require', 'tsx/cjs', join(__dirname, 'server.ts')], {
    env: { ...process.env, BENCH_DATA_DIR: dir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.on('line', (l) => {
      try {
        const m = JSON.parse(l) as { ready?: boolean; port?: number };
        if (m.ready && m.port) resolve(m.port);
      } catch {
        /* not our line */
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
  return {
    conn: `esdb://127.0.0.1:${port}?tls=false`,
    ...(child.pid === undefined ? {} : { pid: child.pid }),
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
