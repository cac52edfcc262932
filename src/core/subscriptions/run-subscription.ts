import type { EventStoreDBClient, Filter, Position } from '@eventstore/db-client';
import type { Logger } from '../logger';
import { Backoff } from '../retry';
import type { EventCodecs, EventOf, MalformedEventError, RecordedDomainEvent } from '../events';
import { readBatch } from './batch';
import { catchUpTarget } from './catch-up-target';
import type { CheckpointStore } from './checkpoint-store';
import { Checkpointer, type CheckpointEvery } from './checkpointer';
import { SubscriptionFeed, type FeedItem } from './feed';
import { InOrderCommits } from './in-order-commits';
import { isAfter, positionToString } from './position';
import { PositionWaiters } from './position-waiters';

/**
 * Handles the decoded events of one batch, in `$all` order. `position` is the
 * position the subscription reaches once this batch is handled (it may lie
 * past the last event: skipped events and filter checkpoints count too).
 *
 * A handler that pipelines its writes returns `{ committed }` as soon as they
 * are sent: the next batch is handed over meanwhile, while the subscription's
 * position (waiters, checkpoint, caught-up) moves only once `committed`
 * resolves, in log order. A rejected `committed` is a failed handler: the
 * subscription waits for every write in flight and resumes after the last
 * committed batch. Such a handler must write nothing of a batch whose
 * predecessor's write failed.
 */
export type SubscriptionHandler<E> = (events: ReadonlyArray<RecordedDomainEvent<E>>, position: Position) => Promise<void | PipelinedWrite>;

export interface PipelinedWrite {
  readonly committed: Promise<void>;
}

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
  /** Batches whose pipelined writes may be unconfirmed before the next batch waits (default 2). */
  maxPendingWrites?: number;
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

/** A failure of the slice's code (handler, onMalformed, a pipelined write), as opposed to the connection. */
class HandlerError extends Error {}

/**
 * Marks an error (thrown by a handler, a pipelined write or the store) that
 * says the stored checkpoint moved under this subscription (another writer,
 * a lost Redis): it starts again from the stored checkpoint instead of its
 * own last position.
 */
export const RELOAD_CHECKPOINT = Symbol.for('tagtrail.reloadCheckpoint');
const mustReload = (err: unknown): boolean =>
  [err, err instanceof Error ? err.cause : undefined].some((e) => typeof e === 'object' && e !== null && (e as { [RELOAD_CHECKPOINT]?: unknown })[RELOAD_CHECKPOINT] === true);
async function guard<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw new HandlerError(err instanceof Error ? err.message : String(err), { cause: err });
  }
}

export function runSubscription<C extends EventCodecs>(opts: RunSubscriptionOptions<C>): RunningSubscription {
  const run = new SubscriptionRun(opts);
  return run.handle;
}

/** One running subscription: its loop (run, consume), what it reached (committed) and how it stops. */
class SubscriptionRun<C extends EventCodecs> {
  readonly handle: RunningSubscription;
  private readonly log: Logger;
  private readonly handlerOwned: boolean;
  private readonly checkpointer: Checkpointer;
  private readonly waiters = new PositionWaiters();
  private readonly commits = new InOrderCommits();
  private readonly maxBatch: number;
  private readonly maxPendingWrites: number;
  private readonly onMalformed: (e: MalformedEventError) => void | Promise<void>;
  /** Last position fully handled and committed. */
  private position: Position | undefined;
  /** Last position handed to the handler (ahead of `position` while writes are pipelined). */
  private handedTo: Position | undefined;
  private stopping = false;
  private feed: SubscriptionFeed | undefined;
  private wakeSleep: (() => void) | undefined;
  private target: Position | undefined;
  private caughtUpNow = false;
  private resolveCaughtUp: () => void = () => undefined;
  private readonly running: Promise<void>;
  private stopped: Promise<void> | undefined;

  constructor(private readonly opts: RunSubscriptionOptions<C>) {
    this.log = opts.logger.child('subscription', { subscription: opts.name });
    this.handlerOwned = opts.checkpointMode === 'handler';
    this.checkpointer = new Checkpointer(opts.checkpointStore, opts.name, opts.checkpointEvery ?? {}, this.log);
    this.maxBatch = Math.max(1, opts.maxBatchSize ?? 100);
    this.maxPendingWrites = Math.max(1, opts.maxPendingWrites ?? 2);
    this.onMalformed = opts.onMalformed ?? malformedSkipped(this.log);
    const caughtUp = new Promise<void>((resolve) => (this.resolveCaughtUp = resolve));
    this.running = this.run();
    const position = (): Position | undefined => this.position;
    this.handle = {
      name: opts.name,
      get position() {
        return position();
      },
      caughtUp,
      waitForPosition: (p, timeoutMs) => this.waiters.wait(p, this.position, timeoutMs),
      stop: () => (this.stopped ??= this.stop()),
    };
  }

  private reachCaughtUp(): void {
    if (this.caughtUpNow) return;
    this.caughtUpNow = true;
    this.checkpointer.hurry();
    this.log.info('caught up', { position: positionToString(this.position) });
    this.resolveCaughtUp();
    this.opts.onCaughtUp?.();
  }

  /** A batch's writes are committed (and every earlier one's): its position counts. */
  private committed(reached: Position, seen: number, persisted: boolean): void {
    this.checkpointer.advance(reached, seen, persisted);
    this.position = reached;
    this.waiters.reached(reached);
    if (this.target && !isAfter(this.target, reached)) this.reachCaughtUp();
  }

  private async handleItems(items: FeedItem[]): Promise<void> {
    const batch = readBatch(items, this.handedTo, this.opts.codecs);
    for (const p of batch.repeated) {
      this.log.warn('event at or before the handled position delivered again; ignored', {
        position: positionToString(p), handled: positionToString(this.handedTo),
      });
    }
    for (const m of batch.malformed) await guard(() => this.onMalformed(m));
    const { events, reached, seen } = batch;
    if (reached && isAfter(reached, this.handedTo)) {
      const written = events.length > 0 ? await guard(() => this.opts.handler(events, reached)) : undefined;
      this.handedTo = reached;
      const persisted = this.handlerOwned && events.length > 0;
      this.commits.add(written?.committed, () => this.committed(reached, seen, persisted));
    }
    if (batch.serverCaughtUp) this.commits.add(undefined, () => this.reachCaughtUp());
  }

  /** Throws the first failed pipelined write as a handler failure. */
  private throwIfWriteFailed(): void {
    const failed = this.commits.failed;
    if (failed) throw new HandlerError(failed.error instanceof Error ? failed.error.message : String(failed.error), { cause: failed.error });
  }

  private async consume(current: SubscriptionFeed, onProgress: () => void): Promise<void> {
    let lastLog = Date.now();
    let logged = this.position;
    while (!this.stopping) {
      await this.commits.room(this.maxPendingWrites);
      this.throwIfWriteFailed();
      const items = await current.take(this.maxBatch, Math.min(this.checkpointer.msUntilDue(), 1000));
      if (items.length > 0 && !this.stopping) {
        await this.handleItems(items);
        onProgress();
      }
      // Never while a handler's write is in flight: it carries its own (later) position.
      if (this.commits.pending === 0 && this.checkpointer.isDue()) await this.checkpointer.flush();
      if (Date.now() - lastLog >= 10_000 && this.position !== logged) {
        const fields = { position: positionToString(this.position) };
        if (this.caughtUpNow) this.log.debug('progress', fields);
        else this.log.info('progress', fields); // catching up: show operators it moves
        lastLog = Date.now();
        logged = this.position;
      }
    }
  }

  /** Lets every pipelined write settle and goes back to the last committed position. */
  private async settleWrites(): Promise<void> {
    await this.commits.settled();
    this.commits.reset();
    this.handedTo = this.position;
  }

  private async run(): Promise<void> {
    // After a drop or a handler failure; starts over once events flow again.
    const backoff = new Backoff({ initialMs: this.opts.retry?.initialMs ?? 100, maxMs: this.opts.retry?.maxMs ?? 5000 });
    let loaded = false;
    while (!this.stopping) {
      try {
        if (!loaded) {
          this.position = this.handedTo = await this.checkpointer.load();
          loaded = true;
          this.log.info('starting', { from: positionToString(this.position) });
        }
        this.target = await catchUpTarget(this.opts.client, this.opts.filter);
        if (this.stopping) break;
        this.caughtUpNow = false;
        this.feed = new SubscriptionFeed(this.opts.client, {
          from: this.position,
          ...(this.opts.filter ? { filter: this.opts.filter } : {}),
          ...(this.opts.maxQueued ? { highWaterMark: this.opts.maxQueued } : {}),
        });
        if (this.target === undefined || !isAfter(this.target, this.position)) this.reachCaughtUp();
        await this.consume(this.feed, () => backoff.reset());
      } catch (err) {
        await this.settleWrites();
        if (this.stopping) break;
        const retryInMs = backoff.next();
        const fields = { retryInMs, from: positionToString(this.position) };
        if (mustReload(err)) {
          loaded = false;
          this.log.error('checkpoint moved under this subscription; resuming from the stored one', { retryInMs, error: err instanceof Error ? (err.cause ?? err) : err });
          await this.sleep(retryInMs);
          continue;
        }
        if (err instanceof HandlerError) {
          this.log.error('handler failed; retrying from the last handled position', { ...fields, error: err.cause ?? err });
        } else {
          // Expected while the server restarts: the message says enough.
          this.log.warn('subscription dropped; resubscribing', { ...fields, error: err instanceof Error ? err.message : String(err) });
        }
        await this.checkpointer.flush().catch((e: unknown) => this.log.warn('checkpoint save failed', { error: e }));
        await this.sleep(retryInMs);
      } finally {
        await this.feed?.close();
        this.feed = undefined;
      }
    }
    await this.settleWrites();
  }

  private async sleep(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wakeSleep = () => (clearTimeout(timer), resolve());
    });
    this.wakeSleep = undefined;
  }

  private async stop(): Promise<void> {
    this.stopping = true;
    this.wakeSleep?.();
    await this.feed?.close();
    await this.running;
    await this.checkpointer.flush();
    this.waiters.cancelAll();
    this.log.info('stopped', { position: positionToString(this.position) });
  }
}

/** What a reader of the log does by default with an event its codec refuses: logs it as skipped. */
export function malformedSkipped(log: Logger): (e: MalformedEventError) => void {
  return (e) =>
    log.error('malformed event skipped', {
      streamId: e.streamId, revision: e.revision, eventType: e.eventType, reason: e.reason, errors: e.errors,
    });
}
