// A tagtrail entry point as a child process of a benchmark, so the service
// and the load the benchmark makes do not share one event loop.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/**
 * Starts `entry` (relative to the repository) and resolves once it logs
 * `msg`. BENCH_SHOW_LOGS=1 echoes its lines above info; `profile` with
 * BENCH_CPU_PROF_DIR=dir writes a CPU profile there.
 */
export function startChild(entry: string, env: NodeJS.ProcessEnv, msg: string, profile = false): Promise<ChildProcess> {
  const prof = profile && process.env['BENCH_CPU_PROF_DIR'] ? ['--cpu-prof', `--cpu-prof-dir=${process.env['BENCH_CPU_PROF_DIR']}`] : [];
  const child = spawn(process.execPath, [...prof, '--require', 'tsx/cjs', join(__dirname, '..', '..', entry)], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let partial = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      partial += chunk.toString('utf8');
      const lines = partial.split('\n');
      partial = lines.pop() ?? '';
      for (const l of lines) {
        if (l.includes(`"msg":"${msg}"`)) resolve(child);
        if (process.env['BENCH_SHOW_LOGS'] && !l.includes('"level":"info"')) process.stderr.write(`${l}\n`);
      }
    });
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${String(code)} before logging ${msg}`)));
  });
}
