import type {
  AllStreamResolvedEvent,
  AllStreamSubscription,
  EventStoreDBClient,
  Filter,
  Position,
} from '@eventstore/db-client';

export type FeedItem =
  | { kind: 'event'; resolved: AllStreamResolvedEvent; position: Position }
  /** The server examined the log up to here (filtered subscriptions): nothing before it is pending. */
  | { kind: 'checkpoint'; position: Position }
  /** The server says every event that existed at subscribe time has been delivered. */
  | { kind: 'caughtUp' };

export interface FeedOptions {
  /** Exclusive start; undefined = the beginning of `$all`. */
  from: Position | undefined;
  filter?: Filter;
  /** Pause the gRPC stream when this many items wait, so a slow handler applies backpressure. */
  highWaterMark?: number;
}

/**
 * One `$all` catch-up subscription turned into an ordered queue of events and
 * markers. The client reports filter checkpoints and caught-up through
 * callbacks that fire while earlier events may still sit in the stream's
 * read buffer; taken at face value, a checkpoint could be saved before those
 * events were handled (a gap after restart). Each marker is therefore held
 * back until the events buffered before it have been queued.
 */
export class SubscriptionFeed {
  private readonly queue: FeedItem[] = [];
  private readonly held: Array<{ remaining: number; item: FeedItem }> = [];
  private readonly subscription: AllStreamSubscription;
  private readonly highWaterMark: number;
  private wake: (() => void) | undefined;
  private failure: Error | undefined;
  private closed = false;
  private paused = false;

  constructor(client: EventStoreDBClient, opts: FeedOptions) {
    this.highWaterMark = opts.highWaterMark ?? 1000;
    const filter = opts.filter && {
      ...opts.filter,
      checkpointReached: (_s: AllStreamSubscription, position: Position) =>
        this.mark({ kind: 'checkpoint', position }),
    };
    this.subscription = client.subscribeToAll({
      fromPosition: opts.from ?? 'start',
      ...(filter ? { filter } : {}),
    });
    this.subscription.on('data', (resolved: AllStreamResolvedEvent) => this.onData(resolved));
    this.subscription.on('caughtUp', () => this.mark({ kind: 'caughtUp' }));
    this.subscription.on('error', (err: Error) => this.fail(err));
    // A catch-up subscription never ends by itself; the server closing it
    // (shutdown, restart) is a failure to recover from by resubscribing.
    this.subscription.on('end', () => this.fail(new Error('subscription ended by the server')));
  }

  get error(): Error | undefined {
    return this.failure;
  }

  /**
   * Resolves with up to `max` items as soon as some are queued, or with []
   * after `timeoutMs` (so the caller can do timed work) or once closed.
   * Rejects once the subscription failed: the caller resubscribes from what
   * it has handled, so queued leftovers are not worth handing out.
   */
  async take(max: number, timeoutMs: number): Promise<FeedItem[]> {
    if (this.queue.length === 0 && !this.closed && !this.failure) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
    if (this.failure && !this.closed) throw this.failure;
    const items = this.queue.splice(0, max);
    if (this.paused && this.queue.length < this.highWaterMark / 2) {
      this.paused = false;
      this.subscription.resume();
    }
    return items;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.queue.length = 0;
    this.wake?.();
    await this.subscription.unsubscribe().catch(() => undefined);
    this.subscription.removeAllListeners('data');
    this.subscription.destroy();
  }

  private onData(resolved: AllStreamResolvedEvent): void {
    if (this.closed) return;
    const position = resolved.event?.position ?? resolved.link?.position;
    if (position) this.push({ kind: 'event', resolved, position });
    // Release markers that were waiting for this event to be queued. Counts
    // are relative to the marker before, so only the first one ticks.
    const first = this.held[0];
    if (first) first.remaining -= 1;
    for (let next = this.held[0]; next && next.remaining <= 0; next = this.held[0]) {
      this.held.shift();
      this.push(next.item);
    }
  }

  private mark(item: FeedItem): void {
    if (this.closed) return;
    // readableLength counts events already transformed but not yet emitted
    // as 'data': the marker must come after exactly those. Held markers count
    // relative to the marker before them, so the queue keeps server order.
    const ahead = this.subscription.readableLength - this.held.reduce((n, h) => n + h.remaining, 0);
    if (ahead <= 0 && this.held.length === 0) this.push(item);
    else this.held.push({ remaining: Math.max(ahead, 0), item });
  }

  private push(item: FeedItem): void {
    this.queue.push(item);
    if (!this.paused && this.queue.length >= this.highWaterMark) {
      this.paused = true;
      this.subscription.pause();
    }
    this.wake?.();
  }

  private fail(err: Error): void {
    if (this.closed || this.failure) return;
    this.failure = err;
    this.wake?.();
  }
}
