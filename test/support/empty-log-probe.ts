// Child process for a contract test: on a brand-new embedded store (empty
// $all), subscribes to $all from START, optionally with a filter, and checks
// that the subscription confirms and then delivers the first event ever
// appended. Runs out of process because a server that spins on an empty log
// would freeze the in-process test runner.
//
//   node --require tsx/cjs test/support/empty-log-probe.ts <dataDir> [filter]
import fs from 'node:fs';
import { EventStoreDBClient, START, jsonEvent, streamNameFilter } from '@eventstore/db-client';
import { startEmbeddedEventStore } from '../../src/eventstore/server';
import { testLogger } from './eventstore';

const say = (line: object): void => {
  fs.writeSync(1, JSON.stringify(line) + '\n');
};

async function main(): Promise<void> {
  const [dataDir, mode] = process.argv.slice(2);
  if (!dataDir) throw new Error('usage: empty-log-probe.ts <dataDir> [filter]');
  const server = await startEmbeddedEventStore({ dataDir, host: '127.0.0.1', port: 0, logger: testLogger() });
  const client = EventStoreDBClient.connectionString(server.connectionString);
  say({ step: 'started' });
  const sub = client.subscribeToAll({
    fromPosition: START,
    ...(mode === 'filter' ? { filter: streamNameFilter({ prefixes: ['probe-'] }) } : {}),
  });
  const confirmed = new Promise<void>((resolve) => sub.once('confirmation', () => resolve()));
  const first = new Promise<string | undefined>((resolve, reject) => {
    sub.on('data', (e) => {
      if (e.event?.streamId === 'probe-1') resolve(e.event.id);
    });
    sub.on('error', reject);
  });
  await confirmed;
  say({ step: 'confirmed' });
  const ev = jsonEvent({ type: 'Probe', data: { ok: true } });
  await client.appendToStream('probe-1', ev);
  say({ step: 'appended' });
  const id = await first;
  say({ step: 'received', ok: id === ev.id });
  await sub.unsubscribe();
  await client.dispose();
  await server.close();
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`empty-log-probe failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
});
