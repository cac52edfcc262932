// npm run bench:startup: what running the compiled build (dist/, plain node)
// saves against running the TypeScript sources through tsx, at start and in
// memory (docs/benchmarks.md, "Start-up and memory"; docs/operations.md).
//
// Each round starts the whole service (every role, its own embedded event
// store, data directory and Redis prefix) once from the sources and once
// from dist/, in turns so that a machine getting busier weighs on both, and
// measures, from the spawn:
//  - load: until the first log line of the service (`starting`): node up and
//    every module loaded (through tsx's compiler for the sources);
//  - started: until `started` (every role up, Redis and RabbitMQ connected);
//  - RSS at `started` and its peak until then (VmRSS, VmHWM);
//  - stop: SIGTERM to exit.
// The raw limit measured in the same run is a bare `node -e 0` from spawn to
// exit: no process can start faster. Medians are printed, and the ratios
// dist/sources and load/bare node.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { removeRunState } from './support/cleanup';
import { positiveEnv } from './support/env';
import { percentile } from './support/stats';

const ROOT = path.resolve(__dirname, '..');
const ROUNDS = positiveEnv('BENCH_ROUNDS', 5);
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

interface Run {
  readonly loadMs: number;
  readonly startedMs: number;
  readonly rssMiB: number;
  readonly peakMiB: number;
  readonly stopMs: number;
}

const WAYS = {
  sources: ['--require', 'tsx/cjs', 'src/main.ts'],
  dist: ['dist/src/main.js'],
} as const;

function memoryMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

function bareNodeMs(): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  return new Promise((resolve) => child.once('exit', () => resolve(performance.now() - t0)));
}

async function startOnce(args: readonly string[]): Promise<Run> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tagtrail-bench-startup-'));
  const keyPrefix = `tagtrail-bench-startup-${crypto.randomUUID()}:`;
  const env = { ...process.env, PORT: '0', HOST: '127.0.0.1', EVENTSTORE_PORT: '0', EVENTSTORE_HOST: '127.0.0.1', DATA_DIR: dataDir, REDIS_KEY_PREFIX: keyPrefix, LOG_LEVEL: 'info' };
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const pid = child.pid as number;
  let loadMs = 0;
  try {
    const { startedMs, memory } = await new Promise<{ startedMs: number; memory: { rss: number; peak: number } }>((resolve, reject) => {
      let partial = '';
      child.stdout.on('data', (chunk: Buffer) => {
        partial += chunk.toString('utf8');
        const lines = partial.split('\n');
        partial = lines.pop() ?? '';
        for (const l of lines) {
          if (loadMs === 0) loadMs = performance.now() - t0;
          if (l.includes('"msg":"started"')) resolve({ startedMs: performance.now() - t0, memory: memoryMiB(pid) });
        }
      });
      child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${String(code)} before it started`)));
    });
    const stopped = performance.now();
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const code = await exited;
    if (code !== 0) throw new Error(`${args.join(' ')} exited with ${String(code)} after SIGTERM`);
    return { loadMs, startedMs, rssMiB: memory.rss, peakMiB: memory.peak, stopMs: performance.now() - stopped };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await removeRunState(REDIS_URL, keyPrefix, dataDir);
  }
}

const median = (xs: readonly number[]): number => percentile([...xs].sort((a, b) => a - b), 50);

async function main(): Promise<void> {
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the build failed');
  const runs: Record<keyof typeof WAYS, Run[]> = { sources: [], dist: [] };
  const bare: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    bare.push(await bareNodeMs());
    const order = round % 2 === 0 ? (['sources', 'dist'] as const) : (['dist', 'sources'] as const);
    for (const way of order) runs[way].push(await startOnce(WAYS[way]));
    process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
  }
  const m = (way: keyof typeof WAYS, f: keyof Run): number => median(runs[way].map((r) => r[f]));
  const bareMs = median(bare);
  console.log(`startup: ${ROUNDS} rounds, medians; bare node -e 0 (raw limit): ${bareMs.toFixed(0)} ms`);
  console.log('| | load (to the first log line) | started | RSS at started | peak RSS | stop (SIGTERM to exit) |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const way of ['sources', 'dist'] as const) {
    console.log(`| ${way === 'sources' ? 'sources through tsx' : 'dist/, plain node'} | ${m(way, 'loadMs').toFixed(0)} ms | ${m(way, 'startedMs').toFixed(0)} ms | ${m(way, 'rssMiB').toFixed(0)} MiB | ${m(way, 'peakMiB').toFixed(0)} MiB | ${m(way, 'stopMs').toFixed(0)} ms |`);
  }
  const ratio = (f: keyof Run): string => (m('dist', f) / m('sources', f)).toFixed(2);
  console.log(`dist/sources: load ${ratio('loadMs')}, started ${ratio('startedMs')}, RSS ${ratio('rssMiB')}, peak RSS ${ratio('peakMiB')}`);
  console.log(`load / bare node: sources ${(m('sources', 'loadMs') / bareMs).toFixed(1)}, dist ${(m('dist', 'loadMs') / bareMs).toFixed(1)}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
