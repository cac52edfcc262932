// The event log's own latency floor for a pipeline benchmark: one small
// event appended to a scratch stream and the time until a subscription to
// that stream receives it, on the same store and under the same load as the
// figure it is the limit of. Every hop of the pipeline (report -> engine,
// engine output -> read model) costs at least one of these.
import { EventStoreDBClient, END, jsonEvent } from '@eventstore/db-client';

export interface LogHop {
  /** Appends one event and resolves with the ms until the subscription saw it. */
  sample(): Promise<number>;
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
      await seen;
      waiting.delete(i);
      return performance.now() - s;
    },
    async close() {
      await sub.unsubscribe();
      await client.dispose();
    },
  };
}
