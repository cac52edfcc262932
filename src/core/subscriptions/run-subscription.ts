import type { EventStoreDBClient, Filter, Position } from '@eventstore/db-client';
import { isRight } from 'fp-ts/Either';
import type { Logger } from '../logger';
import { Backoff, sleep } from '../retry';
import { decodeRecorded, hasCodec, type EventCodecs, type EventOf, type MalformedEventError, type RecordedDomainEvent } from '../events';
import { catchUpTarget } from './catch-up-target';
import type { CheckpointStore } from './checkpoint-store';
import { Checkpointer, type CheckpointEvery } from './checkpointer';
import { SubscriptionFeed, type FeedItem } from './feed';
import { isAfter, positionToString } from './position';
import { PositionWaiters } from './position-waiters';

/**
 * Handles the decoded events of one batch, in `$all` order. `position` is the
 * position the subscription reaches once this batch is handled (it may lie
 * past the last event: skipped events and filter checkpoints count too).
 */
export type SubscriptionHandler<E> = (events: ReadonlyArray<RecordedDomainEvent<E>>, position: Position) => Promise<void>;

export interface RunSubscriptionOptions<C extends EventCodecs> {
  client: EventStoreDBClient;
  /** Names the checkpoint; keep it stable (version it to rebuild beside the old one). */
  name: string;
  /** Events of other types are skipped (`$all` carries every slice's and the server's events). */
  codecs: C;
  /** Server-side filter (`streamNameFilter`/`eventTypeFilter`); its checkpoints advance our position. */
  filter?: Filter;
  checkpointStore: CheckpointStore;
  /**
   * 'runner' (default): the runner saves positions after the handler succeeds.
   * 'handler': the handler writes `position` itself, atomically with its own
   * changes (exactly-once read models); the runner still loads from the store
   * and saves only positions the handler never saw (skipped events, filter
   * checkpoints), never while the handler runs.
   */
  checkpointMode?: 'runner' | 'handler';
  checkpointEvery?: CheckpointEvery;
  handler: SubscriptionHandler<EventOf<C>>;
  logger: Logger;
  /** Largest batch handed to the handler at once (default 100; 1 = one event per call). */
  maxBatchSize?: number;
  /** Events buffered ahead of the handler before the subscription pauses (default 1000): bounds memory. */
  maxQueued?: number;
  /** Called for each stored event of a known type that fails its codec; default logs it. Throwing retries. */
  onMalformed?: (error: MalformedEventError) => void | Promise<void>;
  /** Called each time the subscription (re)catches up with the log. */
  onCaughtUp?: () => void;
  retry?: { initialMs?: number; maxMs?: number };
}

export interface RunningSubscription {
  readonly name: string;
  /** Last position fully handled. */
  readonly position: Position | undefined;
  /** Resolves the first time the subscription has handled everything stored when it started. */
  readonly caughtUp: Promise<void>;
  /** True once `position` reached `target` (false on time-out): read-your-writes for HTTP. */
  waitForPosition(target: Position, timeoutMs: number): Promise<boolean>;
  /** Stops receiving, waits for the handler in flight, saves the checkpoint. */
  stop(): Promise<void>;
}

/** A failure of the slice's code (handler, onMalformed), as opposed to the connection. */
class HandlerError extends Error {}
async function guard(work: () => void | Promise<void>): Promise<void> {
  try {
    await work();
  } catch (err) {
    throw new HandlerError(err instanceof Error ? err.message : String(err), { cause: err });
  }
}

export function runSubscription<C extends EventCodecs>(opts: RunSubscriptionOptions<C>): RunningSubscription {
  const log = opts.logger.child('subscription', { subscription: opts.name });
  const handlerOwned = opts.checkpointMode === 'handler';
  const checkpointer = new Checkpointer(opts.checkpointStore, opts.name, opts.checkpointEvery ?? {}, log);
  const waiters = new PositionWaiters();
  const maxBatch = Math.max(1, opts.maxBatchSize ?? 100);
  // After a drop or a handler failure; starts over once events flow again.
  const backoff = new Backoff({ initialMs: opts.retry?.initialMs ?? 100, maxMs: opts.retry?.maxMs ?? 5000 });
  let position: Position | undefined;
  let stopping = false;
  let feed: SubscriptionFeed | undefined;
  const stopWaiting = new AbortController();
  let target: Position | undefined;
  let caughtUpNow = false;
  let resolveCaughtUp: () => void = () => undefined;
  const caughtUp = new Promise<void>((resolve) => (resolveCaughtUp = resolve));

  const reachCaughtUp = (): void => {
    if (caughtUpNow) return;
    caughtUpNow = true;
    checkpointer.hurry();
    log.info('caught up', { position: positionToString(position) });
    resolveCaughtUp();
    opts.onCaughtUp?.();
  };

  const onMalformed = opts.onMalformed ?? ((e: MalformedEventError) =>
    log.error('malformed event skipped', {
      streamId: e.streamId, revision: e.revision, eventType: e.eventType, reason: e.reason, errors: e.errors,
    }));

  async function handle(items: FeedItem[]): Promise<void> {
    const batch: Array<RecordedDomainEvent<EventOf<C>>> = [];
    let reached = position;
    let seen = 0;
    let serverCaughtUp = false;
    for (const item of items) {
      if (item.kind === 'caughtUp') serverCaughtUp = true;
      else if (item.kind === 'checkpoint') {
        if (isAfter(item.position, reached)) reached = item.position;
      } else if (!isAfter(item.position, reached)) {
        log.warn('event at or before the handled position delivered again; ignored', {
          position: positionToString(item.position), handled: positionToString(reached),
        });
      } else {
        reached = item.position;
        seen += 1;
        const type = item.resolved.event?.type;
        if (type === undefined || !hasCodec(opts.codecs, type)) continue;
        const decoded = decodeRecorded(item.resolved, opts.codecs);
        if (isRight(decoded)) batch.push(decoded.right);
        else await guard(() => onMalformed(decoded.left));
      }
    }
    if (reached && isAfter(reached, position)) {
      const end = reached;
      if (batch.length > 0) await guard(() => opts.handler(batch, end));
      checkpointer.advance(reached, seen, handlerOwned && batch.length > 0);
      position = reached;
      waiters.reached(reached);
      if (target && !isAfter(target, reached)) reachCaughtUp();
    }
    if (serverCaughtUp) reachCaughtUp();
  }

  async function consume(current: SubscriptionFeed, onProgress: () => void): Promise<void> {
    let lastLog = Date.now();
    let logged = position;
    while (!stopping) {
      const items = await current.take(maxBatch, Math.min(checkpointer.msUntilDue(), 1000));
      if (items.length > 0 && !stopping) {
        await handle(items);
        onProgress();
      }
      if (checkpointer.isDue()) await checkpointer.flush();
      if (Date.now() - lastLog >= 10_000 && position !== logged) {
        const fields = { position: positionToString(position) };
        if (caughtUpNow) log.debug('progress', fields);
        else log.info('progress', fields); // catching up: show operators it moves
        lastLog = Date.now();
        logged = position;
      }
    }
  }

  async function run(): Promise<void> {
    let loaded = false;
    while (!stopping) {
      try {
        if (!loaded) {
          position = await checkpointer.load();
          loaded = true;
          log.info('starting', { from: positionToString(position) });
        }
        target = await catchUpTarget(opts.client, opts.filter);
        if (stopping) break;
        caughtUpNow = false;
        feed = new SubscriptionFeed(opts.client, {
          from: position,
          ...(opts.filter ? { filter: opts.filter } : {}),
          ...(opts.maxQueued ? { highWaterMark: opts.maxQueued } : {}),
        });
        if (target === undefined || !isAfter(target, position)) reachCaughtUp();
        await consume(feed, () => backoff.reset());
      } catch (err) {
        if (stopping) break;
        const retryInMs = backoff.next();
        const fields = { retryInMs, from: positionToString(position) };
        if (err instanceof HandlerError) {
          log.error('handler failed; retrying from the last handled position', { ...fields, error: err.cause ?? err });
        } else {
          // Expected while the server restarts: the message says enough.
          log.warn('subscription dropped; resubscribing', { ...fields, error: err instanceof Error ? err.message : String(err) });
        }
        await checkpointer.flush().catch((e: unknown) => log.warn('checkpoint save failed', { error: e }));
        await sleep(retryInMs, stopWaiting.signal);
      } finally {
        await feed?.close();
        feed = undefined;
      }
    }
  }

  const running = run();
  let stopped: Promise<void> | undefined;
  return {
    name: opts.name,
    get position() {
      return position;
    },
    caughtUp,
    waitForPosition: (p, timeoutMs) => waiters.wait(p, position, timeoutMs),
    stop: () =>
      (stopped ??= (async () => {
        stopping = true;
        stopWaiting.abort();
        await feed?.close();
        await running;
        await checkpointer.flush();
        waiters.cancelAll();
        log.info('stopped', { position: positionToString(position) });
      })()),
  };
}
