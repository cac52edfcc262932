import { BACKWARDS, END, type AllStreamRecordedEvent, type EventStoreDBClient, type Filter, type Position } from '@eventstore/db-client';

/** Mirrors the server-side filter, so the client can tell which stored events a subscription will see. */
export function matchesFilter(filter: Filter, event: Pick<AllStreamRecordedEvent, 'streamId' | 'type'>): boolean {
  const value = filter.filterOn === 'streamName' ? event.streamId : event.type;
  if ('prefixes' in filter) return filter.prefixes.some((p) => value.startsWith(p));
  return new RegExp(filter.regex).test(value);
}

/**
 * The `$all` position a new subscription must have handled to count as caught
 * up: the newest event it would receive. Servers before EventStoreDB 23.10
 * (and possibly the embedded one) never say "caught up", so this is the
 * fallback. Only the newest `scanLimit` events are examined; when none of
 * them matches the filter, the newest position is returned and only a filter
 * checkpoint (or the server's own caught-up signal) can pass it.
 */
export async function catchUpTarget(
  client: EventStoreDBClient,
  filter: Filter | undefined,
  scanLimit = 1000,
): Promise<Position | undefined> {
  let newest: Position | undefined;
  let match: Position | undefined;
  // Read to the end rather than break on the first match: a client read left
  // early keeps its gRPC call open and client.dispose() waits for it forever.
  for await (const resolved of client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: filter ? scanLimit : 1 })) {
    const event = resolved.event;
    if (!event) continue;
    newest ??= event.position;
    if (match === undefined && (!filter || matchesFilter(filter, event))) match = event.position;
  }
  return match ?? newest;
}
