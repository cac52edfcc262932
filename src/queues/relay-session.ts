// The relay while it holds the lease and its broker connection is open: the
// subscription that publishes every batch (./relay-batch.ts), the checkpoints
// saved behind the broker's confirms (./committer.ts), the restart from the
// last confirmed checkpoint when a batch is not confirmed, and idle queue
// retirement. ./relay.ts starts one per successful start-up.
import type { EventStoreDBClient, Filter, Position } from '@eventstore/db-client';
import type * as amqp from 'amqplib';
import type { Logger } from '../core/logger';
import type { RedisClient } from '../core/redis/connect';
import type { RedisKeys } from '../core/redis/keys';
import type { EventCodecs, EventOf, RecordedDomainEvent } from '../core/events';
import { metrics } from '../core/metrics';
import { runSubscription, type RunningSubscription } from '../core/subscriptions';
import type { LogCheckpoint } from '../core/subscriptions/log-checkpoint';
import type { BodySlab } from './body-slab';
import { ConfirmedCheckpoints } from './committer';
import type { ConfirmPublisher } from './publisher';
import type { QueueRegistry } from './registry';
import { RelayBatch, type MessagesOf } from './relay-batch';
import { startIdleQueueRetirer, type RetirementOptions } from './retirement';

export interface RelayWindow {
  /** Batches sent ahead of their confirms. */
  readonly batches: number;
  /** Messages sent ahead of their confirms. */
  readonly messages: number;
  /** Messages built before they are handed to the connection. */
  readonly flushEvery: number;
}

export interface RelaySessionOptions<C extends EventCodecs> {
  readonly client: EventStoreDBClient;
  readonly redis: RedisClient;
  readonly keys: RedisKeys;
  readonly logger: Logger;
  readonly name: string;
  readonly codecs: C;
  readonly filter: Filter;
  /** Where the confirmed positions go (the event log, taken by this process) and the subscription starts from. */
  readonly checkpoint: LogCheckpoint;
  readonly model: amqp.RecoveringChannelModel;
  readonly publisher: ConfirmPublisher;
  readonly registry: QueueRegistry;
  readonly slab: BodySlab;
  readonly messagesOf: MessagesOf<RecordedDomainEvent<EventOf<C>>>;
  readonly window: RelayWindow;
  readonly maxBatchSize: number;
  readonly retirement: RetirementOptions;
  /** True once the relay is stopping: no restart after a failed batch. */
  readonly stopping: () => boolean;
}

export class RelaySession<C extends EventCodecs> {
  private sub: RunningSubscription;
  private restarting: Promise<void> | undefined;
  private readonly checkpoints: ConfirmedCheckpoints;
  private readonly retirer: { stop(): Promise<void> };

  constructor(private readonly opts: RelaySessionOptions<C>) {
    const confirmed = { save: (at: Position, published: boolean) => opts.checkpoint.save({ at, skip: 0 }, published) };
    this.checkpoints = new ConfirmedCheckpoints(confirmed, opts.logger, (err) => this.restartAfter(err));
    this.sub = this.subscribe(this.checkpoints.generation);
    this.retirer = startIdleQueueRetirer(
      { client: opts.client, redis: opts.redis, idleKey: opts.keys.queueIdleSince, model: opts.model, queues: () => opts.registry.names(), logger: opts.logger },
      opts.retirement,
    );
  }

  get subscription(): RunningSubscription {
    return this.sub;
  }

  /** Stops publishing and waits (at most 5 s) for the last batches' confirms, so their checkpoint is saved. */
  async stop(): Promise<void> {
    await this.retirer.stop();
    await this.restarting;
    await this.sub.stop();
    // The publisher is still open: the confirms of what was sent still come.
    await Promise.race([this.checkpoints.settled(), new Promise((r) => setTimeout(r, 5000).unref())]);
  }

  /** A batch was not confirmed: everything after the last saved position goes again, on a new subscription. */
  private restartAfter(err: unknown): void {
    this.restarting ??= (async () => {
      metrics.relayRetries.inc();
      this.opts.logger.warn('relay: a batch was not confirmed; resuming from the last confirmed checkpoint', { err: err instanceof Error ? err.message : String(err) });
      this.checkpoints.newGeneration();
      await this.sub.stop();
      await this.checkpoints.settled();
      if (!this.opts.stopping()) this.sub = this.subscribe(this.checkpoints.generation);
    })().finally(() => (this.restarting = undefined));
  }

  private subscribe(generation: number): RunningSubscription {
    const { opts, checkpoints } = this;
    return runSubscription({
      client: opts.client,
      name: opts.name,
      codecs: opts.codecs,
      filter: opts.filter,
      // Starts from the newest confirmed position; every save (also of positions the handler never saw) waits behind the confirms before it.
      checkpointStore: { load: () => Promise.resolve(opts.checkpoint.progress.at), save: async (_name, position) => checkpoints.enqueue(generation, position) },
      checkpointMode: 'handler',
      logger: opts.logger,
      maxBatchSize: opts.maxBatchSize,
      handler: (events, position) => this.publish(generation, events, position),
    });
  }

  private async publish(generation: number, events: ReadonlyArray<RecordedDomainEvent<EventOf<C>>>, position: Position): Promise<void> {
    const { checkpoints, opts } = this;
    if (generation !== checkpoints.generation) throw new Error('relay generation ended; resubscribing');
    await checkpoints.room(generation, opts.window);
    const { sent, confirmed } = await new RelayBatch(opts.publisher, opts.registry, opts.slab, opts.window, opts.messagesOf).send(events);
    if (generation !== checkpoints.generation) throw new Error('relay generation ended; resubscribing');
    checkpoints.enqueue(generation, position, confirmed, sent);
  }
}
