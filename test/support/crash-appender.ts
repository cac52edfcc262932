// Child process for the crash test: runs the embedded event store on the data
// directory given as argv[2], appends in a loop (single events and small
// batches, over both append RPCs) and prints one JSON line per acknowledged
// append. The parent SIGKILLs it and then checks every acknowledged event.
//
//   node --require tsx/cjs test/support/crash-appender.ts <dataDir>
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { EventStoreDBClient, NO_STREAM, jsonEvent, type AppendExpectedRevision, type AppendResult } from '@eventstore/db-client';
import { startEmbeddedEventStore } from '../../src/eventstore/server';
import type { Logger } from '../../src/core/logger';

export interface AckLine {
  stream: string;
  ids: string[];
  /** nextExpectedRevision of the append: revision of its last event. */
  revision: string;
  commit: string | null;
  prepare: string | null;
}

const quiet: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: (m) => process.stderr.write(`warn: ${m}\n`),
  error: (m, f) => process.stderr.write(`error: ${m} ${JSON.stringify(f ?? {})}\n`),
  child: () => quiet,
};

// writeSync so a line is in the pipe before the next append starts: whatever
// the parent reads was acknowledged before the kill.
const emit = (line: object): void => {
  fs.writeSync(1, JSON.stringify(line) + '\n');
};

async function appendLoop(client: EventStoreDBClient, stream: string, worker: number): Promise<never> {
  let expected: AppendExpectedRevision = NO_STREAM;
  for (let i = 0; ; i++) {
    const size = i % 3 === 0 ? 1 + ((i + worker) % 5) : 1;
    const events = Array.from({ length: size }, (_, k) =>
      jsonEvent({ type: 'CrashTest', data: { worker, i, k, pad: 'c'.repeat(100) } }),
    );
    const options = i % 4 === 1 ? { credentials: { username: 'admin', password: 'changeit' } } : {};
    const result: AppendResult = await client.appendToStream(stream, events, { ...options, expectedRevision: expected });
    expected = result.nextExpectedRevision;
    const ack: AckLine = {
      stream,
      ids: events.map((e) => e.id),
      revision: result.nextExpectedRevision.toString(),
      commit: result.position ? result.position.commit.toString() : null,
      prepare: result.position ? result.position.prepare.toString() : null,
    };
    emit(ack);
  }
}

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: crash-appender.ts <dataDir>');
  const server = await startEmbeddedEventStore({ dataDir, host: '127.0.0.1', port: 0, logger: quiet });
  const client = EventStoreDBClient.connectionString(server.connectionString);
  emit({ ready: true, connectionString: server.connectionString });
  const run = randomUUID().slice(0, 8);
  await Promise.all([0, 1, 2].map((w) => appendLoop(client, `crash-${run}-${w}`, w)));
}

main().catch((err: unknown) => {
  process.stderr.write(`crash-appender failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
});
