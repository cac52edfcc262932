// Waits for a subscription's saved checkpoint to reach a position: for the
// relay, the checkpoint moves only once the broker confirmed every message up
// to it (src/queues/committer.ts), so reaching the last appended event means
// the broker has finished with everything the relay sent. The relay keeps it
// in the event log (src/core/subscriptions/log-checkpoint.ts).
import type { EventStoreDBClient, Position } from '@eventstore/db-client';
import { readLogCheckpoint } from '../../src/core/subscriptions/log-checkpoint';
import { isAfter } from '../../src/core/subscriptions/position';
import { setTimeout as sleep } from 'node:timers/promises';

/** Resolves with the ms waited once the log checkpoint `name` is at or past `target`; throws after `timeoutMs`. */
export async function checkpointReached(client: EventStoreDBClient, name: string, target: Position, timeoutMs = 120_000): Promise<number> {
  const start = performance.now();
  for (;;) {
    const saved = (await readLogCheckpoint(client, name)).at;
    if (saved && !isAfter(target, saved)) return performance.now() - start;
    if (performance.now() - start > timeoutMs) throw new Error(`checkpoint ${name} not at ${String(target.commit)} within ${timeoutMs} ms`);
    await sleep(10);
  }
}
