// The Redis client of a process. Start-up fails within `startupTimeoutMs` if
// Redis cannot be reached (a wrong REDIS_URL should fail the deployment, not
// hang it); once connected, the client reconnects for as long as it takes.
// Commands issued while it is away fail at once (no offline queue): a request
// answers 503 instead of hanging until Redis is back, and background work
// (projections, relay, timers) retries as it does for any Redis error.
import {
  ClientClosedError,
  ClientOfflineError,
  ConnectionTimeoutError,
  createClient,
  DisconnectsClientError,
  ReconnectStrategyError,
  SocketClosedUnexpectedlyError,
  SocketTimeoutError,
  TimeoutError,
  type RedisClientType,
} from 'redis';
import type { Logger } from '../logger';
import { backoffDelay, type BackoffPolicy } from '../retry';
import { redactUrl } from '../url';

// The defaults: no modules or scripts, RESP3.
export type RedisClient = RedisClientType;

const RECONNECT: BackoffPolicy = { initialMs: 50, maxMs: 2000 };

export async function connectRedis(url: string, logger: Logger, startupTimeoutMs: number): Promise<RedisClient> {
  const shownUrl = redactUrl(url);
  const deadline = Date.now() + startupTimeoutMs;
  let everReady = false;
  let down = false;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: Math.min(5000, startupTimeoutMs),
      reconnectStrategy: (retries, cause) => {
        if (!everReady && Date.now() >= deadline) {
          return new Error(`Redis at ${shownUrl} not reachable within ${startupTimeoutMs} ms: ${cause.message}`);
        }
        return backoffDelay(RECONNECT, retries);
      },
    },
  });
  // node-redis emits 'error' on every failed reconnect; log an outage once.
  client.on('error', (err: Error) => {
    if (!down) logger.warn('redis connection error', { url: shownUrl, err: err.message });
    down = true;
  });
  client.on('ready', () => {
    if (down) logger.info('redis reconnected', { url: shownUrl });
    down = false;
    everReady = true;
  });
  await client.connect();
  logger.info('redis connected', { url: shownUrl });
  return client;
}

export async function redisHealth(client: RedisClient): Promise<void> {
  if (!client.isReady) throw new Error('not connected');
  const pong = await client.ping();
  if (pong !== 'PONG') throw new Error(`unexpected PING reply ${JSON.stringify(pong)}`);
}

const CONNECTION_ERRORS = [
  ClientClosedError,
  ClientOfflineError,
  ConnectionTimeoutError,
  DisconnectsClientError,
  ReconnectStrategyError,
  SocketClosedUnexpectedlyError,
  SocketTimeoutError,
  TimeoutError,
];

/** Whether `err` says Redis is not reachable now (as opposed to a bad command or a bug). */
export function isRedisUnavailable(err: unknown): boolean {
  if (CONNECTION_ERRORS.some((E) => err instanceof E)) return true;
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EPIPE';
}

export async function closeRedis(client: RedisClient): Promise<void> {
  // close() lets queued commands finish; a client that never got ready has
  // nothing to flush and would wait for its reconnect loop instead.
  if (client.isReady) await client.close();
  else client.destroy();
}
