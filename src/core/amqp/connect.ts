// The RabbitMQ connection of a process, with amqplib's built-in recovery.
// Start-up fails within `startupTimeoutMs` if the broker cannot be reached;
// once connected, recovery keeps reconnecting (queue consumers and the relay
// re-create their channels in their own `connect` handlers).
import * as amqp from 'amqplib';
import type { Logger } from '../logger';
import { backoffDelay, type BackoffPolicy } from '../retry';
import { redactUrl } from '../url';
import { withTimeout } from '../health';

const RECONNECT: BackoffPolicy = { initialMs: 100, maxMs: 5000 };

export interface AmqpConnection {
  readonly model: amqp.RecoveringChannelModel;
  isConnected(): boolean;
  /** A broker round trip: opens and closes a channel. */
  health(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/** What the connection's events tell: read by the recovery schedule, the health check and the start-up error. */
interface LinkState {
  connected: boolean;
  everConnected: boolean;
  closing: boolean;
  /** The last failed connect attempt's message, for the start-up error. */
  lastFailure: string;
}

export async function connectAmqp(
  url: string,
  logger: Logger,
  startupTimeoutMs: number,
  connectionName: string,
  /** Gives up the start-up early (the caller is stopping): the connect attempt and its retry timer end at once. */
  signal?: AbortSignal,
): Promise<AmqpConnection> {
  signal?.throwIfAborted();
  const shownUrl = redactUrl(url);
  const deadline = Date.now() + startupTimeoutMs;
  const state: LinkState = { connected: false, everConnected: false, closing: false, lastFailure: '' };
  const model = await amqp.connect(url, {
    // Shown in the RabbitMQ management UI, so operators can tell processes apart.
    clientProperties: { connection_name: connectionName },
    timeout: Math.min(5000, startupTimeoutMs),
    recovery: {
      waitForConnect: false,
      maxRetries: Infinity,
      calculateDelay: (attempt: number): number => {
        // Throwing makes amqplib give up, which rejects waitForConnect().
        if (!state.everConnected && Date.now() >= deadline) {
          throw new Error(`RabbitMQ at ${shownUrl} not reachable within ${startupTimeoutMs} ms`);
        }
        return backoffDelay(RECONNECT, attempt - 1);
      },
    },
  });
  followConnection(model, state, logger, shownUrl);
  await firstConnection(model, state, signal);
  logger.info('amqp connected', { url: shownUrl });
  return {
    model,
    isConnected: () => state.connected,
    async health(timeoutMs) {
      // Channel operations wait for a connection during recovery; fail fast instead.
      if (!state.connected) throw new Error('not connected');
      const ch = await withTimeout(model.createChannel(), timeoutMs, 'amqp');
      await ch.close();
    },
    async close() {
      state.closing = true;
      await model.close();
      state.connected = false;
    },
  };
}

/** Keeps `state` up to date with the connection's events and logs them. */
function followConnection(model: amqp.RecoveringChannelModel, state: LinkState, logger: Logger, shownUrl: string): void {
  model.on('connect', () => {
    if (state.everConnected) logger.info('amqp reconnected', { url: shownUrl });
    state.connected = true;
    state.everConnected = true;
  });
  model.on('disconnect', (err: Error) => {
    state.connected = false;
    if (!state.closing) logger.warn('amqp connection lost', { url: shownUrl, err: err.message });
  });
  model.on('connect-failed', (err: Error) => {
    state.lastFailure = err.message;
  });
  model.on('reconnect-failed', (err: Error) => {
    // Before the first connection the caller reports the failure itself.
    if (state.everConnected) logger.error('amqp gave up reconnecting', { url: shownUrl, err });
  });
  model.on('error', (err: Error) => logger.warn('amqp connection error', { url: shownUrl, err: err.message }));
  model.on('blocked', (reason: string) => logger.warn('amqp connection blocked by broker', { reason }));
  model.on('unblocked', () => logger.info('amqp connection unblocked'));
  model.on('handler-error', (err: Error, event: string) => logger.error('amqp event handler threw', { event, err }));
}

/** Resolves once connected; rejects when recovery gives up (with the last attempt's error) or `signal` aborts. */
async function firstConnection(model: amqp.RecoveringChannelModel, state: LinkState, signal: AbortSignal | undefined): Promise<void> {
  // close() rejects waitForConnect() and cancels the next attempt; a socket still opening is closed once it opens.
  const giveUp = (): void => void model.close().catch(() => undefined);
  signal?.addEventListener('abort', giveUp, { once: true });
  try {
    await model.waitForConnect();
  } catch (err) {
    const detail = state.lastFailure === '' ? '' : ` (last error: ${state.lastFailure})`;
    throw new Error(`${err instanceof Error ? err.message : String(err)}${detail}`, { cause: err });
  } finally {
    signal?.removeEventListener('abort', giveUp);
  }
}
