// Runs the embedded event store in its own process for benchmarks, so the
// client under test and the server each get a core. Prints one JSON line
// {"ready":true,"port":N} when listening.
import { startEmbeddedEventStore } from '../../src/eventstore/server';

async function main(): Promise<void> {
  const dataDir = process.env['BENCH_DATA_DIR'];
  if (!dataDir) throw new Error('BENCH_DATA_DIR is required');
  const es = await startEmbeddedEventStore({ dataDir, port: 0 });
  process.stdout.write(JSON.stringify({ ready: true, port: es.port }) + '\n');
  const stop = (): void => void es.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(String(err) + '\n');
  process.exit(1);
});
