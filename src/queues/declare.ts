// Declaring a queue the way clients expect to find it (durable, exactly
// QUEUE_ARGUMENTS). Declaring is idempotent: redeclaring an existing queue
// with the same arguments is a no-op, and it recreates one the broker deleted
// (x-expires).
import type { Channel } from 'amqplib';
import { QUEUE_ARGUMENTS } from './model';

export async function declareQueue(channel: Channel, queue: string): Promise<void> {
  await channel.assertQueue(queue, { durable: true, arguments: { ...QUEUE_ARGUMENTS } });
}
