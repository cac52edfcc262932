// Declaring a queue the way clients expect to find it (durable, exactly
// QUEUE_ARGUMENTS, plus x-queue-type for quorum queues). Declaring is
// idempotent: redeclaring an existing queue with the same arguments is a
// no-op, and it recreates one the broker deleted (x-expires).
import type { Channel } from 'amqplib';
import { queueArguments, type QueueType } from './model';

export async function declareQueue(channel: Channel, queue: string, type: QueueType = 'classic'): Promise<void> {
  await channel.assertQueue(queue, { durable: true, arguments: queueArguments(type) });
}
