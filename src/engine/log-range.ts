// `$all` after one position up to another, read in chunks, each read to its
// end (a client read left early keeps its gRPC call open): what the engine
// reads outside its subscription (a replay's input, the configuration of an
// output written before the engine carried it).
import { FORWARDS, START, type AllStreamResolvedEvent, type EventStoreDBClient, type Position } from '@eventstore/db-client';

/** Batches of the events after `after` (default the start) with a commit position up to `until`, system events left out; each batch with the position it ends at. */
export async function* logRange(client: EventStoreDBClient, after: Position | undefined, until: bigint, chunk: number): AsyncGenerator<{ events: AllStreamResolvedEvent[]; end: Position }> {
  let from = after;
  for (;;) {
    const events: AllStreamResolvedEvent[] = [];
    let read = 0;
    let past = false;
    let end: Position | undefined;
    for await (const resolved of client.readAll({ direction: FORWARDS, fromPosition: from ?? START, maxCount: chunk })) {
      const e = resolved.event;
      if (e === undefined) continue;
      read++;
      if (from !== undefined && e.position.commit === from.commit && e.position.prepare === from.prepare) continue;
      if (past || e.position.commit > until) {
        past = true;
        continue;
      }
      end = e.position;
      if (!e.type.startsWith('$')) events.push(resolved);
    }
    if (end === undefined) return;
    yield { events, end };
    from = end;
    if (past || read < chunk) return;
  }
}
