// Projects the `queue-` streams into the list of configured queues (key in
// src/queues/listing.ts): a QueueConfigured adds the queue, a QueueRetired
// (idle, or deleted by a user) removes it.
import type { ConfigProjectionPart } from './part';
import { queueListKind, queueEvents, type QueueEvent, QUEUE_STREAM_PREFIX } from '../../src/queues';

export const queuesPart: ConfigProjectionPart = {
  streamPrefix: QUEUE_STREAM_PREFIX,
  codecs: queueEvents,
  apply(tx, recorded, keys) {
    const event = recorded as unknown as QueueEvent;
    if (event.type === 'QueueConfigured') tx.hSet(keys.config(queueListKind.kind), event.data.queue, JSON.stringify(queueListKind.codec.encode(event.data)));
    else tx.hDel(keys.config(queueListKind.kind), event.data.queue);
  },
};
