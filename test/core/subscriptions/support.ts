// Helpers shared by the subscription integration tests.
import type { EventStoreDBClient, Position } from '@eventstore/db-client';
import { encodeEvent } from '../../../src/core/events';
import { counterEvents } from '../toy-counter';
import { waitFor } from '../../support/wait';

export async function until(what: string, predicate: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  await waitFor(what, predicate, { timeoutMs, intervalMs: 20 });
}

/** Appends one increment per value, each in its own append; returns event ids and positions. */
export async function appendIncrements(client: EventStoreDBClient, stream: string, values: number[]) {
  const out: Array<{ id: string; position: Position }> = [];
  for (const by of values) {
    const event = encodeEvent(counterEvents, { type: 'CounterIncremented', data: { by } });
    const result = await client.appendToStream(stream, event);
    if (!result.position) throw new Error('append returned no position');
    out.push({ id: event.id, position: result.position });
  }
  return out;
}

