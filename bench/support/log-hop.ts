// The event log's own latency floor for a pipeline benchmark: one small
// event appended to a scratch stream and the time until a subscription to
// that stream receives it, on the same store and under the same load as the
// figure it is the limit of. Every hop of the pipeline (report -> engine,
// engine output -> read model) costs at least one of these. Each sample is
// split at the append's acknowledgement: before it the store's durable
// commit (the transaction flushed to disk), after it the delivery to a live
// subscriber, which the store wakes when that commit's head moves.
import { EventStoreDBClient, END, jsonEvent } from '@eventstore/db-client';

export interface HopSample {
  /** From the append until the subscription saw the event. */
  readonly hopMs: number;
  /** From the append until it was acknowledged (durably committed). */
  readonly ackMs: number;
}

export interface LogHop {
  /** Appends one event and resolves with the ms until it was acknowledged and until the subscription saw it. */
  sample(): Promise<HopSample>;
  close(): Promise<void>;
}

export async function logHop(connectionString: string): Promise<LogHop> {
  const client = EventStoreDBClient.connectionString(connectionString);
  const stream = `bench-hop-${crypto.randomUUID()}`;
  const sub = client.subscribeToStream(stream, { fromRevision: END });
  await new Promise((r) => sub.once('confirmation', r));
  const waiting = new Map<number, () => void>();
  sub.on('data', (e: { event?: { data: unknown } }) => waiting.get((e.event?.data as { i: number }).i)?.());
  let next = 0;
  return {
    async sample() {
      const i = next++;
      const seen = new Promise<void>((r) => waiting.set(i, r));
      const s = performance.now();
      await client.appendToStream(stream, jsonEvent({ type: 'BenchHop', data: { i } }));
      const ackMs = performance.now() - s;
      await seen;
      waiting.delete(i);
      return { hopMs: performance.now() - s, ackMs };
    },
    async close() {
      await sub.unsubscribe();
      await client.dispose();
    },
  };
}
