// The API side's broker connection: declares a queue right after its
// QueueConfigured is appended, so a client that checks the queue passively
// the moment it gets the answer finds it; checks queues passively for the
// queue list (message and consumer counts) and deletes a queue a user
// deleted. Opened on first use (a process that never configures a queue
// opens nothing) and reopened after a failure.
import type { Channel } from 'amqplib';
import type { Logger } from '../core/logger';
import { connectAmqp, type AmqpConnection } from '../core/amqp/connect';
import type { BackgroundWork } from '../slice';
import { declareQueue } from './declare';
import type { QueueType } from './model';

const CONNECT_TIMEOUT_MS = 5000;

export interface QueueCounts {
  readonly messageCount: number;
  readonly consumerCount: number;
}

export class QueueDeclarer implements BackgroundWork {
  private connection: Promise<AmqpConnection> | undefined;
  private channel: Promise<Channel> | undefined;
  private stopped = false;

  constructor(
    private readonly url: string,
    private readonly logger: Logger,
    private readonly queueType: QueueType = 'classic',
  ) {}

  /** Declares `queue`; throws when the broker cannot be reached (the relay declares it later anyway). */
  async declare(queue: string): Promise<void> {
    await this.withChannel((ch) => declareQueue(ch, queue, this.queueType));
  }

  /**
   * What the broker says of each queue now, by a passive declare (no
   * management plugin needed): `null` for a queue the broker does not have
   * (expired unused, see x-expires; the relay declares it again when a
   * message matches). Throws when the broker cannot be reached.
   */
  async inspect(queues: readonly string[]): Promise<Map<string, QueueCounts | null>> {
    const out = new Map<string, QueueCounts | null>();
    for (const queue of queues) {
      try {
        const { messageCount, consumerCount } = await this.withChannel((ch) => ch.checkQueue(queue));
        out.set(queue, { messageCount, consumerCount });
      } catch (err) {
        // 404 closes the channel (the next call opens another); anything else is the broker being away.
        if ((err as { code?: unknown }).code !== 404) throw err;
        out.set(queue, null);
      }
    }
    return out;
  }

  /** Deletes `queue` from the broker, consumers or not (they are cancelled); a queue the broker does not have is fine. */
  async delete(queue: string): Promise<void> {
    await this.withChannel((ch) => ch.deleteQueue(queue));
  }

  private async withChannel<T>(use: (ch: Channel) => Promise<T>): Promise<T> {
    if (this.stopped) throw new Error('queue declarer stopped');
    this.connection ??= connectAmqp(this.url, this.logger, CONNECT_TIMEOUT_MS, 'tagtrail[api:queues]');
    const connection = this.connection;
    try {
      const conn = await connection;
      if (!conn.isConnected()) throw new Error('RabbitMQ connection is down');
      this.channel ??= conn.model.createChannel().then((ch) => {
        // A channel error (or the connection going) ends the channel: open a new one next time.
        const forget = (): void => {
          this.channel = undefined;
        };
        ch.on('close', forget);
        ch.on('error', forget);
        return ch;
      });
      return await use(await this.channel);
    } catch (err) {
      this.channel = undefined;
      // A failed first connection is not retried by amqplib: try again from scratch next time.
      if (this.connection === connection) {
        const failed = await connection.then(() => false, () => true);
        if (failed) this.connection = undefined;
      }
      throw err;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const conn = await this.connection?.catch(() => undefined);
    await conn?.close().catch(() => undefined);
  }
}
