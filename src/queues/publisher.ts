// Publishes batches of relay messages on one confirm channel and tells, per
// batch, when the broker has confirmed every message of it, so the relay
// checkpoints a batch only after that (./relay.ts). Messages go to the default
// exchange with the queue name as routing key and `mandatory`: a message for
// a queue the broker deleted (x-expires) comes back as a basic.return before
// its confirm; the queue is then redeclared and the returned messages sent
// again.
//
// Any failure (channel or connection closed by the broker, nack, confirm
// time-out) rejects the batch's confirmation: the relay resumes from its last
// confirmed checkpoint on a fresh channel, so nothing is lost and a consumer
// may see a message twice (same messageId).
import type { ConfirmChannel, Message } from 'amqplib';
import type * as amqp from 'amqplib';
import type { Logger } from '../core/logger';
import { declareQueue } from './declare';
import type { QueueType } from './model';
import { encodePublishes, type PublishFrame } from './frames';
import { batchWriterOf } from './channel-writer';

/** A relay message: its frames are encoded by ./frames.ts. */
export type OutMessage = PublishFrame;

export interface PublisherOptions {
  /** Longest wait for the confirms of one batch before the batch is retried. */
  readonly confirmTimeoutMs?: number;
  /** How many times returned messages are redeclared and sent again before the batch fails. */
  readonly maxReturnRounds?: number;
  /** The type queues are declared as (AMQP_QUEUE_TYPE); default classic. */
  readonly queueType?: QueueType;
}

const SLOW_CONFIRMS_MS = 250;
/** A slow broker slows every batch: one warning per this period at most, counting the slow batches since the last one. */
const SLOW_LOG_EVERY_MS = 10_000;

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
  private readonly returned = new Map<string, true>();
  private stopped = false;
  /**
   * Waits in progress, rejected by stop(). Not a race against one pending
   * "stopped" promise: each race leaves a reaction on it until it settles,
   * about 300 bytes per batch for as long as the publisher lives (live, a
   * batch is often one event).
   */
  private readonly waits = new Set<(err: Error) => void>();
  /** Slow confirm waits not yet logged, and when the last line was. */
  private slow = { batches: 0, messages: 0, longestMs: 0, loggedAt: Number.NEGATIVE_INFINITY };
  private readonly confirmTimeoutMs: number;
  private readonly maxReturnRounds: number;
  private readonly queueType: QueueType;

  constructor(
    private readonly model: amqp.RecoveringChannelModel,
    private readonly logger: Logger,
    opts: PublisherOptions = {},
  ) {
    this.confirmTimeoutMs = opts.confirmTimeoutMs ?? 30_000;
    this.maxReturnRounds = opts.maxReturnRounds ?? 3;
    this.queueType = opts.queueType ?? 'classic';
  }

  /** Declares `queues` (start-up: every registered queue, so they exist again after a broker restart). */
  async declare(queues: Iterable<string>): Promise<void> {
    const ch = await this.open();
    for (const q of queues) await this.unlessStopped(declareQueue(ch, q, this.queueType));
  }

  /**
   * Publishes `messages` in order and resolves once they are handed to the
   * connection; `confirmed` then resolves when the broker confirmed every one
   * and each reached its queue (returned ones: queue redeclared, sent again),
   * or rejects (channel closed, nack, time-out). Batches may be sent while
   * earlier ones still wait for their confirms.
   */
  async send(messages: readonly OutMessage[], round = 0): Promise<{ confirmed: Promise<void> }> {
    const ch = await this.open();
    // One promise per batch, counted down by the broker's acks (not one per
    // message: at 1 queue the relay's own CPU per message is what limits it).
    let remaining = messages.length;
    let settleAll: (err?: Error) => void = () => undefined;
    const all = new Promise<void>((resolve, reject) => {
      settleAll = (err) => (err ? reject(err) : resolve());
    });
    all.catch(() => undefined); // a nack while this loop still sends is handled by settle() below
    const onConfirm = (err: unknown): void => {
      if (err) settleAll(err instanceof Error ? err : new Error(String(err)));
      else if (--remaining === 0) settleAll();
    };
    if (remaining === 0) settleAll();
    const first = batchWriterOf(ch);
    if (!first) throw new Error('channel closed');
    for (const chunk of encodePublishes(first.channel, messages, first.frameMax)) {
      // Looked up again after every wait: a channel closed meanwhile must not be written to.
      const writer = batchWriterOf(ch);
      if (!writer) throw new Error('channel closed');
      const ok = writer.write(chunk.bytes);
      // One confirm callback per message, in publish order: amqplib's delivery-tag bookkeeping counts them.
      for (let i = 0; i < chunk.messages; i++) writer.pushConfirmCallback(onConfirm);
      // Past the channel's buffer: wait for it to drain (or the channel to end) instead of buffering without bound.
      if (!ok) await this.unlessStopped(drained(ch));
    }
    const confirmed = this.settle(ch, messages, all, round);
    // Awaited by the caller later; a rejection before then is not an unhandled one.
    confirmed.catch(() => undefined);
    return { confirmed };
  }

  /** Ends waits in progress (send and confirmations reject) and closes the channel. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const reject of this.waits) reject(new Stopped());
    this.waits.clear();
    const ch = await this.channel?.catch(() => undefined);
    await ch?.close().catch(() => undefined);
  }

  private async settle(ch: ConfirmChannel, messages: readonly OutMessage[], acked: Promise<void>, round: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no confirms within ${this.confirmTimeoutMs} ms`)), this.confirmTimeoutMs);
    });
    const started = Date.now();
    try {
      await this.unlessStopped(Promise.race([acked, timeout]));
    } catch (err) {
      // Late confirms of this channel must not be taken for the retry's: start over on a new one.
      if (this.channel && (await this.channel.catch(() => undefined)) === ch) this.channel = undefined;
      await ch.close().catch(() => undefined);
      throw err;
    } finally {
      clearTimeout(timer);
    }
    const waited = Date.now() - started;
    // Every message behind a slow confirm waits for its checkpoint: worth telling an operator.
    if (waited >= SLOW_CONFIRMS_MS) this.noteSlowConfirms(waited, messages.length);
    // A basic.return arrives before the confirm of its message, so the set is complete here (and usually empty:
    // then no key per message is built).
    if (this.returned.size === 0) return;
    const returned = messages.filter((m) => this.returned.delete(key(m.queue, m.messageId)));
    if (returned.length === 0) return;
    if (round >= this.maxReturnRounds) throw new Error(`messages still unroutable after ${this.maxReturnRounds} redeclarations`);
    const queues = [...new Set(returned.map((m) => m.queue))];
    this.logger.info('relay: recreating queues the broker had deleted', { queues });
    await this.declare(queues);
    await (await this.send(returned, round + 1)).confirmed;
  }

  private noteSlowConfirms(waitedMs: number, messages: number): void {
    const slow = this.slow;
    slow.batches++;
    slow.messages += messages;
    slow.longestMs = Math.max(slow.longestMs, waitedMs);
    const now = Date.now();
    if (now - slow.loggedAt < SLOW_LOG_EVERY_MS) return;
    this.logger.warn('relay: slow broker confirms', { waitedMs: slow.longestMs, batches: slow.batches, messages: slow.messages });
    this.slow = { batches: 0, messages: 0, longestMs: 0, loggedAt: now };
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

  /** `p`, or a rejection once stop() is called (at once if it was). */
  private unlessStopped<T>(p: Promise<T>): Promise<T> {
    if (this.stopped) return Promise.reject(new Stopped());
    return new Promise<T>((resolve, reject) => {
      this.waits.add(reject);
      p.then(
        (value) => (this.waits.delete(reject), resolve(value)),
        (err: unknown) => (this.waits.delete(reject), reject(err)),
      );
    });
  }
}
