// Runs the embedded event store in its own process for benchmarks, so the
// client under test and the server each get a core. Prints one JSON line
// {"ready":true,"port":N} when listening. With BENCH_CPU_PROF_DIR set, a line
// `profile <name>` on stdin starts a CPU profile of this process and `stop`
// writes it to that directory as <name>.cpuprofile, then answers
// {"profiled":"<file>"}.
import { createInterface } from 'node:readline';
import { startEmbeddedEventStore } from '../../src/eventstore/server';
import { profilePhase } from './profiler';

function obeyProfileCommands(dir: string): void {
  // The start is asynchronous: a `stop` right behind its `profile` waits for it.
  let started: Promise<() => Promise<string>> | undefined;
  createInterface({ input: process.stdin }).on('line', (line) => {
    const [command, name] = line.trim().split(' ');
    if (command === 'profile' && name !== undefined && started === undefined) {
      started = profilePhase(dir, name);
    } else if (command === 'stop' && started !== undefined) {
      const s = started;
      started = undefined;
      void s.then((stop) => stop()).then((file) => process.stdout.write(JSON.stringify({ profiled: file }) + '\n'));
    }
  });
}

async function main(): Promise<void> {
  const dataDir = process.env['BENCH_DATA_DIR'];
  if (!dataDir) throw new Error('BENCH_DATA_DIR is required');
  const es = await startEmbeddedEventStore({ dataDir, port: 0 });
  const profDir = process.env['BENCH_CPU_PROF_DIR'];
  if (profDir) obeyProfileCommands(profDir);
  process.stdout.write(JSON.stringify({ ready: true, port: es.port }) + '\n');
  const stop = (): void => void es.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(String(err) + '\n');
  process.exit(1);
});
