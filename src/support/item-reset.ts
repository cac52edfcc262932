// Item reset (POST /support/v1/itemReset, docs/support.md): a request event
// on ITEM_RESET_STREAM. The item engine carries it out in log order with the
// reports (src/engine/worker.ts) and records it on ENGINE_STREAM, where the
// items read model and the as-of fold meet it; nothing else is written here.
import * as t from 'io-ts';
import { ApiError } from '../core/http/errors';
import { decodeInput } from '../core/http/decode';
import { randomUUID } from 'node:crypto';
import { runOnLastEvent } from '../core/last-event-command';
import type { AppDeps } from '../slice';
import { facilityKind } from '../facilities';
import { ITEM_RESET_STREAM, itemResetEvents } from '../engine';

export const ItemResetBody = t.intersection(
  [t.type({ facility: t.string }), t.partial({ clearHistory: t.boolean })],
  'ItemResetBody',
);

export interface ItemResetAccepted {
  readonly requestId: string;
  readonly facility: string;
  readonly clearHistory: boolean;
  readonly at: string;
}

/** Validates the body (400 naming the field, 404 for an unknown facility) and appends the request. */
export async function requestItemReset(deps: AppDeps, body: unknown, user: string | null, now: Date): Promise<ItemResetAccepted> {
  const input = decodeInput(ItemResetBody, body, 'body');
  if ((await deps.readModel.get(facilityKind, input.facility)) === undefined) {
    const reason = `unknown facility ${JSON.stringify(input.facility)}`;
    throw new ApiError('notFound', reason, [{ path: 'body.facility', reason }]);
  }
  const data = { facility: input.facility, clearHistory: input.clearHistory ?? false, at: now.toISOString(), user };
  // A request, always taken (the engine carries it out in log order); its id is the requestId answered to the client.
  const requestId = randomUUID();
  await runOnLastEvent(deps.client, {
    stream: ITEM_RESET_STREAM,
    codecs: itemResetEvents,
    decide: () => [{ type: 'ItemsResetRequested', data }],
    ids: [requestId],
    ...(user ? { metadata: { user } } : {}),
  });
  return { requestId, facility: data.facility, clearHistory: data.clearHistory, at: data.at };
}
