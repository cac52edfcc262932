// Live updates for clients such as the web console: one `$all` subscription
// (from the end of the log: live only, nothing replayed) over the item
// engine's output, job streams and reader health streams, fanned out to
// every open server-sent-events stream. The subscription exists only while
// a stream is open. A stream that cannot keep up is closed (the client
// reconnects and reloads its state from the REST queries), so one slow
// client never holds memory or the others back.
import { PassThrough } from 'node:stream';
import { streamNameFilter, type AllStreamResolvedEvent, type AllStreamSubscription, type EventStoreDBClient } from '@eventstore/db-client';
import type { Logger } from '../core/logger';
import { backoffDelay, type BackoffPolicy } from '../core/retry';
import { ENGINE_STREAM_PREFIX } from '../engine';
import { JOB_STREAM_PREFIX } from '../jobs';
import { HEALTH_STREAM_PREFIX, AGENT_STREAM_PREFIX } from '../health';
import { liveMessages, type LiveMessage, type Topic } from './messages';

/** Bytes a stream may have waiting in its socket before it is dropped as too slow. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
const KEEPALIVE_MS = 15_000;
/** After a lost subscription: a new one a second later, as often as it takes (clients were told of the gap already). */
const RESUBSCRIBE: BackoffPolicy = { initialMs: 1_000, maxMs: 1_000, factor: 1 };

export interface LiveClient {
  readonly topics: ReadonlySet<Topic>;
  /** Only item changes into or out of this facility and passages through its doors; undefined: all. */
  readonly facility: string | undefined;
}

interface OpenStream extends LiveClient {
  readonly out: PassThrough;
}

export class LiveHub {
  private readonly streams = new Set<OpenStream>();
  private subscription: AllStreamSubscription | undefined;
  private keepalive: NodeJS.Timeout | undefined;
  private resubscribe: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly logger: Logger,
  ) {}

  get openStreams(): number {
    return this.streams.size;
  }

  /** A new SSE body; ends when the client goes away, when it is too slow, or at close(). */
  open(client: LiveClient): PassThrough {
    const out = new PassThrough();
    const stream: OpenStream = { ...client, out };
    if (this.closed) {
      out.end();
      return out;
    }
    this.streams.add(stream);
    out.on('close', () => this.drop(stream));
    // Tells the client which topics it gets (its roles decide) and that the
    // stream is live, so it can load the current state after this point.
    out.write(`retry: 2000\nevent: hello\ndata: ${JSON.stringify({ topics: [...client.topics].sort(), facility: client.facility ?? null })}\n\n`);
    this.ensureSubscribed();
    return out;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const s of this.streams) s.out.end();
    this.streams.clear();
    await this.stopSubscription();
  }

  private drop(stream: OpenStream): void {
    if (!this.streams.delete(stream)) return;
    if (this.streams.size === 0) void this.stopSubscription();
  }

  private ensureSubscribed(): void {
    if (this.subscription || this.resubscribe) return;
    const sub = this.client.subscribeToAll({
      fromPosition: 'end',
      filter: streamNameFilter({ prefixes: [ENGINE_STREAM_PREFIX, JOB_STREAM_PREFIX, HEALTH_STREAM_PREFIX, AGENT_STREAM_PREFIX] }),
    });
    this.subscription = sub;
    sub.on('data', (resolved: AllStreamResolvedEvent) => this.onEvent(resolved));
    const lost = (err: unknown): void => {
      if (this.subscription !== sub) return;
      this.subscription = undefined;
      sub.removeAllListeners();
      sub.on('error', () => undefined);
      if (this.closed || this.streams.size === 0) return;
      this.logger.warn('live subscription lost; resubscribing', { err });
      // Events between the loss and the new subscription are not sent: say
      // so, and clients reload their state from the REST queries.
      this.broadcast({ event: 'gap', topics: 'all', data: { reason: 'subscription lost' } });
      this.resubscribe = setTimeout(() => {
        this.resubscribe = undefined;
        if (!this.closed && this.streams.size > 0) this.ensureSubscribed();
      }, backoffDelay(RESUBSCRIBE, 0));
    };
    sub.on('error', lost);
    sub.on('end', () => lost(new Error('subscription ended by the server')));
    this.keepalive ??= setInterval(() => this.writeAll(': keepalive\n\n'), KEEPALIVE_MS);
  }

  private async stopSubscription(): Promise<void> {
    if (this.keepalive) clearInterval(this.keepalive);
    if (this.resubscribe) clearTimeout(this.resubscribe);
    this.keepalive = undefined;
    this.resubscribe = undefined;
    const sub = this.subscription;
    this.subscription = undefined;
    if (!sub) return;
    sub.removeAllListeners();
    sub.on('error', () => undefined);
    await sub.unsubscribe().catch(() => undefined);
    sub.destroy();
  }

  private onEvent(resolved: AllStreamResolvedEvent): void {
    let messages: LiveMessage[];
    try {
      messages = liveMessages(resolved);
    } catch (err) {
      this.logger.warn('live: event not sent, it does not decode', { err, stream: resolved.event?.streamId });
      return;
    }
    for (const m of messages) this.broadcast(m);
  }

  private broadcast(message: LiveMessage): void {
    let all: string | undefined;
    const perFacility = new Map<string, string>();
    for (const s of this.streams) {
      if (message.topics !== 'all' && !s.topics.has(message.topics)) continue;
      let text: string | undefined;
      if (message.event === 'items' && s.facility !== undefined) {
        text = perFacility.get(s.facility);
        if (text === undefined) {
          const data = { ...message.data, changes: message.data.changes.filter((c) => c.facility === s.facility || c.fromFacility === s.facility) };
          text = data.changes.length > 0 || data.reset ? frame(message.event, data) : '';
          perFacility.set(s.facility, text);
        }
      } else if (message.event === 'transitions' && s.facility !== undefined) {
        text = perFacility.get(s.facility);
        if (text === undefined) {
          const passages = message.data.transitions.filter((t) => t.facility === s.facility);
          text = passages.length > 0 ? frame(message.event, { ...message.data, transitions: passages }) : '';
          perFacility.set(s.facility, text);
        }
      } else text = all ??= frame(message.event, message.data);
      if (text) this.write(s, text);
    }
  }

  private writeAll(text: string): void {
    for (const s of this.streams) this.write(s, text);
  }

  private write(s: OpenStream, text: string): void {
    if (s.out.writableLength > MAX_BUFFERED_BYTES) {
      this.logger.warn('live stream dropped: the client does not keep up', { buffered: s.out.writableLength });
      this.drop(s);
      s.out.end();
      return;
    }
    s.out.write(text);
  }
}

const frame = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
