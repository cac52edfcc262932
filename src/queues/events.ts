// The one event of the queues slice: a queue was configured. One stream per
// queue (`queue-<uuid>`), appended with expected revision "no stream". The
// relay rebuilds its queue registry from these events (docs/queues.md).
import * as t from 'io-ts';
import { defineEvents, type EventOf } from '../core/events';
import { IsoTimestamp } from '../core/codecs';
import { DeliveryModeCodec, HealthQueueFilter, ItemQueueFilter, ThresholdQueueFilter } from './model';

const common = { queue: t.string, deliveryMode: DeliveryModeCodec, configuredAt: IsoTimestamp, user: t.string };

export const QueueConfiguredData = t.union([
  t.type({ kind: t.literal('items'), filter: ItemQueueFilter, ...common }),
  t.type({ kind: t.literal('health'), filter: HealthQueueFilter, ...common }),
  t.type({ kind: t.literal('threshold'), filter: ThresholdQueueFilter, ...common }),
]);
export type QueueConfiguredData = t.TypeOf<typeof QueueConfiguredData>;

export const queueEvents = defineEvents({ QueueConfigured: QueueConfiguredData });
export type QueueEvent = EventOf<typeof queueEvents>;
