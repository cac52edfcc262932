// The AMQP relay (role `relay`): a checkpointed subscription over the
// engine's ItemsChanged, the reader health streams and the queue
// configurations that publishes each matching change or health event to every
// queue whose filter it passes. Batches are sent without waiting for the
// previous batch's confirms (a sliding window, MAX_IN_FLIGHT); the
// position of a batch is saved only once the broker has confirmed it and
// every batch before it (./committer.ts), in the event log (stream
// `checkpoint-relay-v1`, src/core/subscriptions/log-checkpoint.ts): losing
// Redis does not make the relay publish the log again, and a relay that
// another one took over from cannot save past it. A batch that is not
// confirmed restarts the subscription from the last saved checkpoint:
// at-least-once delivery, duplicates carry the same messageId.
// Design, guarantees and restarts: docs/queues.md.
import { streamNameFilter, type EventStoreDBClient } from '@eventstore/db-client';
import type { RedisClient } from '../core/redis/connect';
import type { RedisKeys } from '../core/redis/keys';
import type { Logger } from '../core/logger';
import { retry } from '../core/retry';
import type { BackgroundWork } from '../slice';
import { connectAmqp, type AmqpConnection } from '../core/amqp/connect';
import { InMemoryCheckpointStore, RedisCheckpointStore, runSubscription, type RunningSubscription } from '../core/subscriptions';
import { LogCheckpoint, readLogCheckpoint } from '../core/subscriptions/log-checkpoint';
import type { RecordedDomainEvent } from '../core/events';
import { ENGINE_STREAM_PREFIX, isEngineStream, itemEvents } from '../engine';
import { HEALTH_STREAM_PREFIX, healthEvents, readerOfStream, searchableView } from '../health';
import { resetIfLogWasReplaced } from '../core/subscriptions/log-reset';
import { queueEvents } from './events';
import { QUEUE_STREAM_PREFIX } from './model';
import { QueueRegistry } from './registry';
import { ConfirmPublisher, type OutMessage, type PublisherOptions } from './publisher';
import { BodySlab } from './body-slab';
import type { RetirementOptions } from './retirement';
import { RelaySession } from './relay-session';
import { RedisLease } from '../core/redis/lease';
import { addScrapeProbe, ageSeconds, metrics } from '../core/metrics';
import { behindLog } from '../core/subscriptions/behind';
import { matchesHealthFilter, matchesItemFilter, matchesThresholdFilter } from './match';
import { transitionRecordOf } from '../items';
import { itemMessageJson } from './item-json';

export const RELAY_SUBSCRIPTION = 'relay-v1';
const relayEvents = { ...itemEvents, ...healthEvents, ...queueEvents };
type RelayEvent = RecordedDomainEvent<import('../core/events').EventOf<typeof relayEvents>>;

export const relayConnectionName = (pid = process.pid): string => `tagtrail[relay] pid=${pid}`;

/** Messages handed to the connection (not waiting for their confirms) before the handler goes on building the rest of a large batch. */
const FLUSH_EVERY = 10_000;

export interface RelayOptions {
  readonly client: EventStoreDBClient;
  readonly redis: RedisClient;
  readonly keys: RedisKeys;
  readonly logger: Logger;
  /** AMQP_URL: the relay opens a connection of its own, named `tagtrail[relay] pid=<pid>` (operators and tests find it by name). */
  readonly brokerUrl: string;
  readonly startupTimeoutMs?: number;
  readonly publisher?: PublisherOptions;
  /** Most events per handler call (one confirm wait per call while catching up); default 1000. */
  readonly maxBatchSize?: number;
  /** Confirm window and slice size (tests use small ones); default MAX_IN_FLIGHT and FLUSH_EVERY. */
  readonly window?: { readonly batches: number; readonly messages: number; readonly flushEvery: number };
  /** How long the relay lease (./lease.ts) lasts without renewal: a standby takes over after it; default 10 s. */
  readonly leaseMs?: number;
  /** Idle queue retirement (./retirement.ts); default off (idleMs 0). */
  readonly retirement?: RetirementOptions;
  /** Wait after a failed start-up attempt: `initialMs` doubling to at most `maxMs`; default 1 s to 30 s. */
  readonly startRetry?: { readonly initialMs: number; readonly maxMs: number };
}

export interface RunningRelay extends BackgroundWork {
  /** Resolves once the relay is subscribed (queues loaded and redeclared). */
  readonly started: Promise<RunningSubscription>;
}

/** The messages `events` produce (appended to `out`), given the queues configured so far (which QueueConfigured events in `events` extend). */
export function messagesOf(events: readonly RelayEvent[], registry: QueueRegistry, slab = new BodySlab(), out: OutMessage[] = []): OutMessage[] {
  // Messages per queue kind, counted once per event and kind (not per message).
  let built = out.length;
  const countBuilt = (kind: 'items' | 'threshold' | 'health'): void => {
    if (out.length > built) metrics.relayPublished.inc({ kind }, out.length - built);
    built = out.length;
  };
  for (const e of events) {
    const at = e.position?.commit;
    if (at === undefined) throw new Error(`event ${e.id} has no $all position`);
    built = out.length;
    if (e.type === 'QueueConfigured' || e.type === 'QueueRetired') {
      registry.apply(e, at);
    } else if (e.type === 'ItemsChanged') {
      if (!isEngineStream(e.streamId)) continue;
      // Threshold transitions: message id `<event id>:t<index>`, apart from the changes' `<event id>:<index>`.
      const transitions = e.data.transitions ?? [];
      if (transitions.length > 0) {
        const thresholdQueues = registry.configuredBefore('threshold', at);
        transitions.forEach((t, i) => {
          let body: Buffer | undefined;
          for (const q of thresholdQueues) {
            if (!matchesThresholdFilter(q.filter, t)) continue;
            body ??= slab.body(JSON.stringify(transitionRecordOf(t)));
            out.push({ queue: q.queue, body, messageId: `${e.id}:t${i}`, persistent: q.deliveryMode === 'PERSISTENT' });
          }
        });
      }
      countBuilt('threshold');
      const queues = registry.configuredBefore('items', at);
      if (queues.length === 0) continue;
      e.data.changes.forEach((change, i) => {
        let body: Buffer | undefined;
        for (const q of queues) {
          if (!matchesItemFilter(q.filter, change)) continue;
          body ??= slab.body(itemMessageJson(change));
          out.push({ queue: q.queue, body, messageId: `${e.id}:${i}`, persistent: q.deliveryMode === 'PERSISTENT' });
        }
      });
      countBuilt('items');
    } else {
      const reader = readerOfStream(e.streamId);
      if (reader === undefined || !e.streamId.startsWith(HEALTH_STREAM_PREFIX)) continue;
      const view = searchableView(e, reader);
      if (view === undefined) continue;
      let body: Buffer | undefined;
      for (const q of registry.configuredBefore('health', at)) {
        if (!matchesHealthFilter(q.filter, view)) continue;
        body ??= slab.body(JSON.stringify(view));
        out.push({ queue: q.queue, body, messageId: `${e.id}:0`, persistent: q.deliveryMode === 'PERSISTENT' });
      }
      countBuilt('health');
    }
  }
  return out;
}

/** Every queue configured so far: a filtered read of the whole log, up to its end (the read retries on its own until `signal` aborts). */
async function loadRegistry(client: EventStoreDBClient, logger: Logger, signal: AbortSignal): Promise<QueueRegistry> {
  const registry = new QueueRegistry();
  const sub = runSubscription({
    client,
    name: 'relay-registry',
    codecs: queueEvents,
    filter: streamNameFilter({ prefixes: [QUEUE_STREAM_PREFIX] }),
    checkpointStore: new InMemoryCheckpointStore(),
    logger,
    handler: async (events) => {
      for (const e of events) {
        const at = e.position?.commit;
        if (at !== undefined) registry.apply(e, at);
      }
    },
  });
  let onAbort = (): void => undefined;
  const stopped = new Promise<never>((_, reject) => (onAbort = () => reject(new Error('relay stopped during start-up'))));
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    signal.throwIfAborted();
    await Promise.race([sub.caughtUp, stopped]);
  } finally {
    signal.removeEventListener('abort', onAbort);
    await sub.stop();
  }
  return registry;
}

/**
 * How far the relay sends ahead of the broker's confirms before the handler
 * waits (a sliding window, ./committer.ts). Live, a batch is often one small
 * event: a bound in batches alone (it was 4) capped the rate at a few events
 * per confirm round trip (a broker fsync, 250+ ms on a loaded machine). The
 * message bound keeps what waits for confirms (and for a possible resend)
 * bounded in memory.
 */
const MAX_IN_FLIGHT = { batches: 256, messages: 20_000 };

/** What the relay reads from the log. */
const RELAY_FILTER = streamNameFilter({ prefixes: [ENGINE_STREAM_PREFIX, HEALTH_STREAM_PREFIX, QUEUE_STREAM_PREFIX] });

export function startRelay(opts: RelayOptions): RunningRelay {
  const relay = new Relay(opts);
  return { started: relay.started, stop: () => relay.stop() };
}

/**
 * One relay process: the lease (only one relay publishes), the start-up
 * retried with back-off, the broker side (connection, publisher) and the
 * session that subscribes and publishes, standing by again when the lease
 * goes to another relay.
 */
class Relay {
  readonly started: Promise<RunningSubscription>;
  private readonly logger: Logger;
  private stopping = false;
  private connection: AmqpConnection | undefined;
  private publisher: ConfirmPublisher | undefined;
  // The confirmed position, in the event log: a Redis that lost its data must
  // not make the relay publish the whole log again.
  private readonly checkpoint: LogCheckpoint;
  private stopCheckpoints: (() => Promise<void>) | undefined;
  // stop() during start-up: ends the connect attempt, the registry read and the wait before the next attempt.
  private readonly abort = new AbortController();
  private readonly lease: RedisLease;
  /** Between losing the lease or the checkpoint and the next start-up: the second signal of the same loss changes nothing. */
  private standingBy = false;
  /** The start-up in progress or done: `started`, or a later one after the lease was lost. */
  private current: Promise<RunningSubscription>;
  private readonly removeProbe: () => void;

  constructor(private readonly opts: RelayOptions) {
    this.logger = opts.logger;
    this.lease = new RedisLease(opts.redis, opts.keys.relayLease, opts.leaseMs ?? 10_000, this.logger);
    this.checkpoint = new LogCheckpoint({
      client: opts.client, name: RELAY_SUBSCRIPTION, holder: this.lease.holder, logger: this.logger,
      onFenced: () => void this.standBy('relay: another relay took the checkpoint over; stopping publishing and standing by'),
    });
    // Lag: the events after the last confirmed checkpoint (what the queues have not surely received), whichever relay saved it.
    this.removeProbe = addScrapeProbe(async () => {
      const late = await behindLog(opts.client, RELAY_FILTER, (await readLogCheckpoint(opts.client, RELAY_SUBSCRIPTION)).at);
      metrics.relayLagEvents.set(late.n);
      metrics.relayLagSeconds.set(ageSeconds(late.oldest));
    });
    this.started = this.run();
    this.current = this.started;
    // Rejects only when stop() ends the start-up.
    this.started.catch(() => undefined);
  }

  async stop(): Promise<void> {
    this.removeProbe();
    this.stopping = true;
    this.abort.abort();
    await this.current.catch(() => undefined);
    // Bounded: with the broker gone, confirms never come; stopping the publisher then ends the waits.
    const stoppedCleanly = await Promise.race([this.stopCheckpoints?.().then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5000).unref())]);
    await this.publisher?.stop();
    if (!stoppedCleanly) await this.stopCheckpoints?.().catch(() => undefined);
    await this.checkpoint.flush().catch(() => undefined);
    await this.connection?.close().catch(() => undefined);
    // After the last checkpoint save: a standby takes over at once, from there.
    await this.lease.release();
  }

  /**
   * Starts until it succeeds or stop() is called. A failed start (broker or
   * event store not reachable yet, a start-up timeout) is retried with
   * back-off: the rest of the process runs on meanwhile, so giving up would
   * leave the queues dead.
   */
  private async run(): Promise<RunningSubscription> {
    // stop() aborts: the failure in hand escapes, also from the middle of a wait.
    const running = await retry(() => this.startOnce(), {
      backoff: this.opts.startRetry ?? { initialMs: 1000, maxMs: 30_000 },
      signal: this.abort.signal,
      onRetry: async (err, { attempt, delayMs }) => {
        // What a half-done attempt opened is closed (stop() would not see it any more); the next attempt opens its own.
        await this.closeBrokerSide();
        // A standby relay may do better meanwhile (its broker or event store may be reachable).
        await this.lease.release();
        this.logger.warn('relay: start failed, retrying', { attempt, delayMs, err: err instanceof Error ? err.message : String(err) });
      },
    });
    this.lease.keep(() => void this.standBy('relay: lease lost to another relay; stopping publishing and standing by'));
    return running;
  }

  private async startOnce(): Promise<RunningSubscription> {
    const { opts, logger } = this;
    // Standby until no other relay publishes (a second relay process waits here).
    await this.lease.acquire(this.abort.signal);
    await this.takeCheckpoint();
    const connection = await connectAmqp(opts.brokerUrl, logger.child('amqp'), opts.startupTimeoutMs ?? 30_000, relayConnectionName(), this.abort.signal);
    this.connection = connection;
    if (this.stopping) throw new Error('relay stopped during start-up');
    const pub = new ConfirmPublisher(connection.model, logger, opts.publisher);
    this.publisher = pub;
    const registry = await loadRegistry(opts.client, logger, this.abort.signal);
    // Bodies of the messages in flight: one slab (./body-slab.ts) for the life of this start.
    const slab = new BodySlab();
    if (this.stopping) throw new Error('relay stopped during start-up');
    await this.redeclare(pub, registry);
    const session = new RelaySession({
      client: opts.client, redis: opts.redis, keys: opts.keys, logger, name: RELAY_SUBSCRIPTION, codecs: relayEvents, filter: RELAY_FILTER,
      checkpoint: this.checkpoint, model: connection.model, publisher: pub, registry, slab, messagesOf,
      window: opts.window ?? { ...MAX_IN_FLIGHT, flushEvery: FLUSH_EVERY }, maxBatchSize: opts.maxBatchSize ?? 1000,
      retirement: opts.retirement ?? { idleMs: 0, checkEveryMs: 1 }, stopping: () => this.stopping,
    });
    logger.info('relay started', { queues: registry.size });
    this.stopCheckpoints = () => session.stop();
    return session.subscription;
  }

  /**
   * Takes the position in the log over (a relay still publishing elsewhere is
   * fenced out at its next save). A deployment that kept it in Redis before
   * continues from there, unless that position belongs to another log.
   */
  private async takeCheckpoint(): Promise<void> {
    const { opts } = this;
    await this.checkpoint.take(async () => {
      const replaced = await resetIfLogWasReplaced({ client: opts.client, redis: opts.redis, keys: opts.keys, projection: RELAY_SUBSCRIPTION, keyPatterns: [], logger: this.logger });
      const at = replaced ? undefined : await new RedisCheckpointStore(opts.redis, opts.keys.checkpointPrefix).load(RELAY_SUBSCRIPTION);
      return at === undefined ? undefined : { at, skip: 0 };
    });
  }

  /** After a broker restart without persistence (or an expiry) the queues are gone: declare them all again. */
  private async redeclare(pub: ConfirmPublisher, registry: QueueRegistry): Promise<void> {
    try {
      await pub.declare(registry.names());
    } catch (err) {
      // Not fatal: a message for a missing queue comes back and redeclares it (publisher.ts).
      this.logger.warn('relay: could not redeclare the queues at start', { err: err instanceof Error ? err.message : String(err) });
    }
  }

  private async closeBrokerSide(): Promise<void> {
    const [pub, conn] = [this.publisher, this.connection];
    this.publisher = undefined;
    this.connection = undefined;
    await pub?.stop().catch(() => undefined);
    await conn?.close().catch(() => undefined);
  }

  /**
   * The lease or the checkpoint went to another relay (ours expired, e.g.
   * while this process was paused, and a standby took it): stop publishing at
   * once and stand by again; the other relay resumes from the saved
   * checkpoint (duplicates possible, nothing lost).
   */
  private async standBy(why: string): Promise<void> {
    if (this.standingBy) return;
    this.standingBy = true;
    this.logger.error(why, { holder: this.lease.holder });
    this.lease.release().catch(() => undefined);
    const stopNow = this.stopCheckpoints;
    this.stopCheckpoints = undefined;
    await Promise.race([stopNow?.(), new Promise((r) => setTimeout(r, 5000).unref())]);
    await this.closeBrokerSide();
    this.standingBy = false;
    if (this.stopping) return;
    this.current = this.run();
    this.current.catch(() => undefined); // rejects only when stop() ends it; stop() awaits it
  }
}
