// The one way a Redis read model's projection runs: a subscription over
// `$all` whose handler folds each batch into a MULTI that also writes the
// checkpoint (every event applied exactly once), committed through the
// projection's FencedWriter (./fenced-writer.ts: only while the checkpoint is
// still the one this process last wrote). A projection declares what it
// reads and how a batch changes Redis; the checkpoint, the fence, its own
// connection and closing it are here.
import type { EventStoreDBClient, Filter, Position } from '@eventstore/db-client';
import type { RedisClient } from '../src/core/redis/connect';
import type { RedisKeys } from '../src/core/redis/keys';
import type { Logger } from '../src/core/logger';
import type { EventCodecs, EventOf, RecordedDomainEvent } from '../src/core/events';
import { runSubscription, type RunningSubscription, type SubscriptionHandler } from '../src/core/subscriptions';
import { FencedWriter, type Multi } from './fenced-writer';

export interface ProjectionDeps {
  readonly client: EventStoreDBClient;
  /** The shared connection: reads of a projection that does not pipeline its writes; its own connection is a duplicate. */
  readonly redis: RedisClient;
  /** The namespace to write under: the live one, or a rebuild's side namespace. */
  readonly keys: RedisKeys;
  readonly logger: Logger;
}

interface ProjectionBase<C extends EventCodecs> extends ProjectionDeps {
  /** The checkpoint's name. */
  readonly name: string;
  readonly codecs: C;
  readonly filter: Filter;
  readonly onCaughtUp?: () => void;
  readonly maxBatchSize?: number;
  readonly maxPendingWrites?: number;
}

export interface Projection<C extends EventCodecs> extends ProjectionBase<C> {
  /** Queues a batch's changes into `tx`; the starter adds the checkpoint and commits it. */
  apply(events: ReadonlyArray<RecordedDomainEvent<EventOf<C>>>, tx: Multi): void | Promise<void>;
  /** After the batch committed (progress counts, log lines). */
  readonly committed?: (events: ReadonlyArray<RecordedDomainEvent<EventOf<C>>>) => void;
}

/** A projection that commits its batches itself (several MULTIs, pipelined): every MULTI through `writer.commit`. */
export interface WriterProjection<C extends EventCodecs> extends ProjectionBase<C> {
  handler(writer: FencedWriter): SubscriptionHandler<EventOf<C>>;
}

/** Starts `projection`: the subscription, its fenced checkpoint, its connection (closed by stop()). */
export function startProjection<C extends EventCodecs>(projection: Projection<C> | WriterProjection<C>): RunningSubscription {
  const writer = new FencedWriter(projection.redis, projection.keys.checkpointPrefix, projection.name, projection.logger);
  const handler: SubscriptionHandler<EventOf<C>> =
    'handler' in projection
      ? projection.handler(writer)
      : async (events, position: Position) => {
        const tx = writer.multi();
        await projection.apply(events, tx);
        await writer.commit(tx, position);
        projection.committed?.(events);
      };
  const sub = runSubscription({
    client: projection.client,
    name: projection.name,
    codecs: projection.codecs,
    filter: projection.filter,
    checkpointStore: writer.store(),
    checkpointMode: 'handler',
    logger: projection.logger,
    handler,
    ...(projection.onCaughtUp ? { onCaughtUp: projection.onCaughtUp } : {}),
    ...(projection.maxBatchSize ? { maxBatchSize: projection.maxBatchSize } : {}),
    ...(projection.maxPendingWrites ? { maxPendingWrites: projection.maxPendingWrites } : {}),
  });
  return {
    name: sub.name,
    get position() {
      return sub.position;
    },
    caughtUp: sub.caughtUp,
    waitForPosition: (p, ms) => sub.waitForPosition(p, ms),
    stop: async () => {
      // Closed also when the last save fails (Redis away, the checkpoint moved): its connection must not outlive it.
      try {
        await sub.stop();
      } finally {
        await writer.close();
      }
    },
  };
}
