// Support events, each kind on its own stream under `support-` (never deleted
// by a factory reset). The factory reset marker's $all position is the epoch
// the reset starts; an item reset request is an input of the item engine,
// which carries it out in order with the reports (docs/support.md).
import * as t from 'io-ts';
import { defineEvents } from '../core/events';

export const FACTORY_RESET_STREAM = 'support-factoryReset';
export const ITEM_RESET_STREAM = 'support-itemReset';
export const SUPPORT_STREAM_PREFIX = 'support-';

export const supportEvents = defineEvents({
  FactoryReset: t.type({ at: t.string, user: t.union([t.string, t.null]) }),
});

export const itemResetEvents = defineEvents({
  ItemsResetRequested: t.type({ facility: t.string, clearHistory: t.boolean, at: t.string, user: t.union([t.string, t.null]) }),
});
export type ItemsResetRequestedData = t.TypeOf<(typeof itemResetEvents)['ItemsResetRequested']>;
