// Which broker queues are tagtrail's client queues: the ones clients may
// consume (and redeclare). Every queue tagtrail declares for a client
// (PUT /data/v1/items/queues, /health/v1/events/queues, .../threshold) is named
// with this prefix, so a client can never touch other applications' queues on
// the same broker, nor tagtrail's internal ones.
export const CLIENT_QUEUE_PREFIX = 'tagtrail.';

export function isClientQueueName(name: string): boolean {
  return name.length > CLIENT_QUEUE_PREFIX.length && name.startsWith(CLIENT_QUEUE_PREFIX);
}
