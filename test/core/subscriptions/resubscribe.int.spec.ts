import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { EventStoreDBClient } from '@eventstore/db-client';
import { startEmbeddedEventStore, type EmbeddedEventStore } from '../../../src/eventstore/server';
import { InMemoryCheckpointStore } from '../../../src/core/subscriptions/checkpoint-store';
import { runSubscription } from '../../../src/core/subscriptions/run-subscription';
import { isRealServer, testLogger, uniqueToken } from '../../support/eventstore';
import { encodeEvent } from '../../../src/core/events';
import { counterEvents } from '../toy-counter';
import { appendIncrements, until } from './support';
import { waitFor, withTimeout } from '../../support/wait';
import type { Logger } from '../../../src/core/logger';

describe('core/subscriptions runSubscription across an event store restart', function () {
  this.timeout(60_000);
  let dataDir: string;
  let server: EmbeddedEventStore | undefined;
  let client: EventStoreDBClient | undefined;

  before(function () {
    // Restarting needs a server of our own; a shared real server is not ours to stop.
    if (isRealServer()) this.skip();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tagtrail-resub-'));
  });
  after(async () => {
    await client?.dispose();
    await server?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('resubscribes after the server went away and came back on the same data dir and port', async () => {
    const logger = testLogger('eventstore');
    server = await startEmbeddedEventStore({ dataDir, host: '127.0.0.1', port: 0, logger });
    const port = server.port;
    client = EventStoreDBClient.connectionString(server.connectionString);
    const stream = `ctr${uniqueToken()}-restart`;
    const before = await appendIncrements(client, stream, [1, 2, 3]);

    const seen: string[] = [];
    // Server-side noise stays visible; "dropped" tells the test the subscription noticed the server going.
    let dropped = false;
    const base = testLogger('subscription');
    const subLogger: Logger = {
      ...base,
      warn: (msg, fields) => {
        if (msg.startsWith('subscription dropped')) dropped = true;
        base.warn(msg, fields);
      },
      child: () => subLogger,
    };
    const sub = runSubscription({
      client,
      name: 'restart',
      codecs: counterEvents,
      checkpointStore: new InMemoryCheckpointStore(),
      logger: subLogger,
      retry: { initialMs: 50, maxMs: 300 },
      handler: async (events) => {
        seen.push(...events.filter((e) => e.streamId === stream).map((e) => e.id));
      },
    });
    await withTimeout(sub.caughtUp, 20_000, 'catch-up');
    expect(seen).to.deep.equal(before.map((e) => e.id));

    await server.close();
    server = undefined;
    await waitFor('the subscription to notice the server is gone', () => dropped);
    server = await startEmbeddedEventStore({ dataDir, host: '127.0.0.1', port, logger });

    // The client's channel may need a moment to reconnect; one atomic append
    // so a retry cannot leave half of it behind.
    const after = [4, 5].map((by) => encodeEvent(counterEvents, { type: 'CounterIncremented', data: { by } }));
    const live = client;
    await until('an append after restart', () =>
      live.appendToStream(stream, after).then(() => true, () => false),
    );
    await until('the events appended after the restart', () => seen.length >= 5);
    await sub.stop();
    expect(seen).to.deep.equal([...before, ...after].map((e) => e.id));
  });
});
