// The factory reset marker: one event per reset on its own stream, never
// deleted. Its $all position is the epoch the reset starts (docs/support.md).
import * as t from 'io-ts';
import { defineEvents } from '../core/events';

export const FACTORY_RESET_STREAM = 'support-factoryReset';
export const SUPPORT_STREAM_PREFIX = 'support-';

export const supportEvents = defineEvents({
  FactoryReset: t.type({ at: t.string, user: t.union([t.string, t.null]) }),
});
