// Support events, each kind on its own stream under `support-` (never deleted
// by a factory reset). The factory reset marker's $all position is the epoch
// the reset starts. The item reset request (`support-itemReset`) is an input
// of the item engine, which carries it out in order with the reports, so its
// events are the engine's (src/engine/item-reset.ts; docs/support.md).
import { BACKWARDS, END, StreamNotFoundError, type EventStoreDBClient, type Position } from '@eventstore/db-client';
import * as t from 'io-ts';
import { defineEvents } from '../core/events';

export const FACTORY_RESET_STREAM = 'support-factoryReset';
export const SUPPORT_STREAM_PREFIX = 'support-';

export const supportEvents = defineEvents({
  FactoryReset: t.type({ at: t.string, user: t.union([t.string, t.null]) }),
});


/**
 * The $all position of the last factory reset, or undefined if there was
 * none. Read models rebuilt from the log start there: the streams deleted by
 * the reset keep their events in $all, and replaying them would bring the
 * old configuration back.
 */
export async function lastFactoryReset(client: EventStoreDBClient): Promise<Position | undefined> {
  let at: Position | undefined;
  try {
    // Read to the end: leaving a for-await early leaves the call open.
    for await (const e of client.readStream(FACTORY_RESET_STREAM, { direction: BACKWARDS, fromRevision: END, maxCount: 1 })) at = e.event?.position ?? at;
  } catch (err) {
    if (!(err instanceof StreamNotFoundError)) throw err;
  }
  return at;
}
