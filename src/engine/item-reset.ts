// The request to reset items (POST /support/v1/itemReset, src/support):
// appended on its own stream under `support-` (a factory reset keeps it) and
// carried out by the item engine in log order with the reports.
import * as t from 'io-ts';
import { defineEvents } from '../core/events';

export const ITEM_RESET_STREAM = 'support-itemReset';

export const itemResetEvents = defineEvents({
  ItemsResetRequested: t.type({ facility: t.string, clearHistory: t.boolean, at: t.string, user: t.union([t.string, t.null]) }),
});
export type ItemsResetRequestedData = t.TypeOf<(typeof itemResetEvents)['ItemsResetRequested']>;
