// The events of the queues slice: a queue was configured (by the API, expected
// revision "no stream"), and a queue was retired, by the relay after it had no
// consumer for QUEUE_RETIRE_IDLE_MS or by a user who deleted it through the
// API. One stream per queue (`queue-<uuid>`).
// The relay rebuilds its queue registry from these events (docs/queues.md).
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

export const QueueRetiredData = t.union([
  t.type({
    queue: t.string,
    /** Why: no consumer at any check since `idleSince`. */
    reason: t.literal('NO_CONSUMER'),
    idleSince: IsoTimestamp,
    retiredAt: IsoTimestamp,
  }),
  t.type({
    queue: t.string,
    /** `DELETE /queues/v1/destroy/{queue}` by `user`. */
    reason: t.literal('DELETED'),
    user: t.string,
    retiredAt: IsoTimestamp,
  }),
]);
export type QueueRetiredData = t.TypeOf<typeof QueueRetiredData>;

export const queueEvents = defineEvents({ QueueConfigured: QueueConfiguredData, QueueRetired: QueueRetiredData });
export type QueueEvent = EventOf<typeof queueEvents>;
