// Publishes one batch of relay messages with publisher confirms and resolves
// only when the broker has confirmed every one of them, so the relay may
// checkpoint after it. Messages go to the default exchange with the queue
// name as routing key and `mandatory`: a message for a queue the broker
// deleted (x-expires) comes back as a basic.return before its confirm; the
// queue is then redeclared and the returned messages published again.
//
// Any failure (channel or connection closed by the broker, nack, confirm
// time-out) throws: the subscription retries the batch from its checkpoint
// on a fresh channel, so nothing is lost and a consumer may see a message
// twice (same messageId).
import type { ConfirmChannel, Message } from 'amqplib';
import type * as amqp from 'amqplib';
import type { Logger } from '../core/logger';
import { declareQueue } from './declare';

export interface OutMessage {
  readonly queue: string;
  readonly body: Buffer;
  /** `<event id>:<index>`: the same for every copy of one change, so consumers drop duplicates. */
  readonly messageId: string;
  readonly persistent: boolean;
}

export interface PublisherOptions {
  /** Longest wait for the confirms of one batch before the batch is retried. */
  readonly confirmTimeoutMs?: number;
  /** How many times returned messages are redeclared and sent again before the batch fails. */
  readonly maxReturnRounds?: number;
}

class Stopped extends Error {
  constructor() {
    super('publisher stopped');
  }
}

/** Resolves on 'drain', rejects when the channel closes first; leaves no listener behind. */
function drained(ch: ConfirmChannel): Promise<void> {
  return new Promise((resolve, reject) => {
    const onDrain = (): void => {
      ch.off('close', onClose);
      resolve();
    };
    const onClose = (): void => {
      ch.off('drain', onDrain);
      reject(new Error('channel closed'));
    };
    ch.once('drain', onDrain);
    ch.once('close', onClose);
  });
}

const key = (queue: string, messageId: string): string => `${queue}\u0000${messageId}`;

export class ConfirmPublisher {
  private channel: Promise<ConfirmChannel> | undefined;
  private returned = new Map<string, true>();
  private stopped = false;
  private readonly stopSignal: Promise<never>;
  private rejectStop: (err: Error) => void = () => undefined;
  private readonly confirmTimeoutMs: number;
  private readonly maxReturnRounds: number;

  constructor(
    private readonly model: amqp.RecoveringChannelModel,
    private readonly logger: Logger,
    opts: PublisherOptions = {},
  ) {
    this.confirmTimeoutMs = opts.confirmTimeoutMs ?? 30_000;
    this.maxReturnRounds = opts.maxReturnRounds ?? 3;
    this.stopSignal = new Promise<never>((_, reject) => {
      this.rejectStop = reject;
    });
    this.stopSignal.catch(() => undefined);
  }

  /** Declares `queues` (start-up: every registered queue, so they exist again after a broker restart). */
  async declare(queues: Iterable<string>): Promise<void> {
    const ch = await this.open();
    for (const q of queues) await this.unlessStopped(declareQueue(ch, q));
  }

  /** Publishes `messages` in order; resolves once all are confirmed and routed to their queue. */
  async publishAll(messages: readonly OutMessage[]): Promise<void> {
    let pending = messages;
    for (let round = 0; pending.length > 0; round++) {
      if (round > this.maxReturnRounds) throw new Error(`messages still unroutable after ${this.maxReturnRounds} redeclarations`);
      const ch = await this.open();
      if (round > 0) {
        const queues = new Set(pending.map((m) => m.queue));
        this.logger.info('relay: recreating queues the broker had deleted', { queues: [...queues] });
        for (const q of queues) await this.unlessStopped(declareQueue(ch, q));
      }
      this.returned = new Map();
      for (const m of pending) {
        const ok = ch.publish('', m.queue, m.body, {
          mandatory: true,
          persistent: m.persistent,
          messageId: m.messageId,
          contentType: 'application/json',
        });
        // Past the socket's buffer: wait for it to drain (or the channel to end) instead of buffering without bound.
        if (!ok) await this.unlessStopped(drained(ch));
      }
      await this.unlessStopped(this.confirms(ch));
      const returned = this.returned;
      pending = pending.filter((m) => returned.has(key(m.queue, m.messageId)));
    }
  }

  /** Ends waits in progress (publishAll rejects) and closes the channel. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.rejectStop(new Stopped());
    const ch = await this.channel?.catch(() => undefined);
    await ch?.close().catch(() => undefined);
  }

  private async confirms(ch: ConfirmChannel): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no confirms within ${this.confirmTimeoutMs} ms`)), this.confirmTimeoutMs);
    });
    try {
      await Promise.race([ch.waitForConfirms(), timeout]);
    } catch (err) {
      // Late confirms of this channel must not be taken for the retry's: start over on a new one.
      this.channel = undefined;
      await ch.close().catch(() => undefined);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  private open(): Promise<ConfirmChannel> {
    if (this.stopped) return Promise.reject(new Stopped());
    if (this.channel) return this.channel;
    const opening = this.unlessStopped(this.model.createConfirmChannel()).then((ch) => {
      ch.on('return', (msg: Message) => {
        const id = msg.properties.messageId as unknown;
        if (typeof id === 'string') this.returned.set(key(msg.fields.routingKey, id), true);
      });
      ch.on('error', (err: Error) => this.logger.warn('relay channel error', { err: err.message }));
      ch.on('close', () => {
        if (this.channel === opening) this.channel = undefined;
      });
      return ch;
    });
    opening.catch(() => {
      if (this.channel === opening) this.channel = undefined;
    });
    this.channel = opening;
    return opening;
  }

  private unlessStopped<T>(p: Promise<T>): Promise<T> {
    return Promise.race([p, this.stopSignal]);
  }
}
