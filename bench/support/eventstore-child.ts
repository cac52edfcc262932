// The event store a benchmark runs against: the embedded store in a child
// process on a temp dir (so it gets a core of its own), unless
// EVENTSTORE_CONNECTION_STRING names another one.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface BenchServer {
  conn: string;
  /** The child's, for CPU figures (none for an external store). */
  pid?: number;
  /**
   * Starts a CPU profile of the child (with BENCH_CPU_PROF_DIR set; else, and
   * for an external store, does nothing); the function returned stops it and
   * resolves to the file written, or undefined.
   */
  profile(name: string): () => Promise<string | undefined>;
  stop(): Promise<void>;
}

export async function startServer(): Promise<BenchServer> {
  const external = process.env['EVENTSTORE_CONNECTION_STRING'];
  if (external) return { conn: external, profile: () => async () => undefined, stop: async () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'tagtrail-bench-'));
  const child: ChildProcess = spawn(process.execPath, ['--require', 'tsx/cjs', join(__dirname, 'server.ts')], {
    env: { ...process.env, BENCH_DATA_DIR: dir, LOG_LEVEL: 'warn' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const nextMessage = <T>(pick: (m: Record<string, unknown>) => T | undefined): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const onLine = (l: string): void => {
        try {
          const v = pick(JSON.parse(l) as Record<string, unknown>);
          if (v === undefined) return;
          lines.off('line', onLine);
          resolve(v);
        } catch {
          /* not our line */
        }
      };
      lines.on('line', onLine);
      child.once('exit', (code) => reject(new Error(`server exited ${code}`)));
    });
  const port = await nextMessage((m) => (m['ready'] === true && typeof m['port'] === 'number' ? m['port'] : undefined));
  const profiling = process.env['BENCH_CPU_PROF_DIR'] !== undefined;
  return {
    conn: `esdb://127.0.0.1:${port}?tls=false`,
    ...(child.pid === undefined ? {} : { pid: child.pid }),
    profile: (name) => {
      if (!profiling) return async () => undefined;
      child.stdin!.write(`profile ${name}\n`);
      return () => {
        const written = nextMessage((m) => (typeof m['profiled'] === 'string' ? m['profiled'] : undefined));
        child.stdin!.write('stop\n');
        return written;
      };
    },
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
