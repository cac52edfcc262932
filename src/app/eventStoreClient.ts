// The event-store client of a process and its health probe. The probe reads
// one event from a stream nobody writes: "stream not found" is a complete
// round trip through the server's read path, needs no special permission
// (reading $all would need admin rights on a secure cluster) and writes
// nothing.
import { EventStoreDBClient, FORWARDS, START, StreamNotFoundError } from '@eventstore/db-client';
import type { Logger } from '../core/logger';
import { retry } from '../core/retry';
import { redactUrl } from '../core/url';

const PROBE_STREAM = 'tagtrail-healthz';

export async function eventStoreHealth(client: EventStoreDBClient, timeoutMs: number): Promise<void> {
  const read = client.readStream(PROBE_STREAM, { direction: FORWARDS, fromRevision: START, maxCount: 1, deadline: timeoutMs });
  try {
    // Read to the end (at most one event) instead of breaking out: a client
    // read left early keeps its gRPC call open and client.dispose() then
    // waits for it forever. An event in the probe stream is fine too.
    for await (const event of read) void event;
  } catch (err) {
    if (err instanceof StreamNotFoundError) return;
    throw err;
  }
}

/**
 * Creates the client and waits until the server answers, so a process does
 * not report itself started against an event store it cannot reach.
 */
export async function connectEventStore(
  connectionString: string,
  logger: Logger,
  startupTimeoutMs: number,
): Promise<EventStoreDBClient> {
  const shown = redactUrl(connectionString);
  const client = EventStoreDBClient.connectionString(connectionString);
  const deadline = Date.now() + startupTimeoutMs;
  try {
    await retry(() => eventStoreHealth(client, Math.max(1, Math.min(5000, deadline - Date.now()))), {
      backoff: { initialMs: 100, maxMs: 2000 },
      maxElapsedMs: startupTimeoutMs,
      onRetry: (err) => logger.debug('event store not answering yet', { connectionString: shown, err }),
    });
  } catch (err) {
    await client.dispose().catch(() => undefined);
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`Event store at ${shown} not reachable within ${startupTimeoutMs} ms: ${reason}`, { cause: err });
  }
  logger.info('event store connected', { connectionString: shown });
  return client;
}
