// The whole service in-process for HTTP tests: embedded event store on a
// temporary directory and a free port, the machine's Redis and RabbitMQ, a
// Redis key prefix of its own (removed at the end) so runs never see each
// other's read models or checkpoints.
import { BACKWARDS, END, EventStoreDBClient } from '@eventstore/db-client';
import { SkewClock } from './clock';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deleteClientQueues, removeRedisKeys, testRedisPrefix } from './redis-prefix';
import { loadConfigOrThrow } from '../../src/config';
import { createLogger } from '../../src/core/logger';
import { Shutdown } from '../../src/core/shutdown';
import { startTagtrail } from '../../src/app/start';
import { QUEUE_STREAM_PREFIX } from '../../src/queues';
import { checkContract } from './contract';
import { waitFor, waitForValue } from './wait';

export interface TestApp {
  readonly baseUrl: string; // http://127.0.0.1:PORT/itemsense
  readonly keyPrefix: string;
  /** Where the app's event store listens (for checks such as "nothing was appended"). */
  readonly eventStoreConnectionString: string;
  /** `http://127.0.0.1:PORT/metrics` when started with METRICS_PORT. */
  readonly metricsUrl?: string;
  /** The app's clock (its event store's record times, its item engine's now): `advance` instead of sleeping through a compute window. */
  readonly clock: SkewClock;
  request(method: string, path: string, opts?: { body?: unknown; auth?: string | null; raw?: string; headers?: Record<string, string> }): Promise<TestResponse>;
  /** Stops the app; removes its Redis keys and data directory unless told to keep Redis (restart tests). */
  stop(opts?: { keepRedis?: boolean }): Promise<void>;
}

export interface TestResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
export const ADMIN = basic('admin', 'admindefault');

/** `clock`: a restart test hands the first app's clock to the next, so time never goes back across the restart. */
export async function startTestApp(env: Record<string, string> = {}, opts: { clock?: SkewClock } = {}): Promise<TestApp> {
  const clock = opts.clock ?? new SkewClock();
  // A DATA_DIR given by the caller is the caller's (restart tests reuse it): never removed here.
  const ownDataDir = env['DATA_DIR'] === undefined;
  const dataDir = env['DATA_DIR'] ?? mkdtempSync(join(tmpdir(), 'tagtrail-app-'));
  const keyPrefix = env['REDIS_KEY_PREFIX'] ?? testRedisPrefix();
  const config = loadConfigOrThrow({
    PORT: '0',
    HOST: '127.0.0.1',
    EVENTSTORE_PORT: '0',
    DATA_DIR: dataDir,
    REDIS_KEY_PREFIX: keyPrefix,
    LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'silent',
    ...env,
  });
  const logger = createLogger('test-app');
  // The service's own default bound is for a machine doing one thing; a test app shares two cores with
  // the rest of the suite, and a stop cut short leaves its data directory locked for the next start.
  const shutdown = new Shutdown({ logger, timeoutMs: 30_000, exit: () => undefined });
  const removeState = async (keepRedis: boolean): Promise<void> => {
    if (!keepRedis) await removeRedisKeys(keyPrefix, config.redisUrl, config.amqpUrl);
    if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  let started: Awaited<ReturnType<typeof startTagtrail>>;
  try {
    started = await startTagtrail(config, logger, shutdown, clock);
    // Read models not yet built answer 503: tests start once all are served.
    await waitForReadModels(`http://127.0.0.1:${started.httpPort}/healthz`);
  } catch (err) {
    // A start that fails half way has opened servers and connections: the
    // caller gets no app to stop, so close them here (the leak check would
    // otherwise report them, and they would disturb the next file).
    await shutdown.run('test start failed');
    await removeState(false);
    throw err;
  }
  const baseUrl = `http://127.0.0.1:${started.httpPort}${config.http.rootPath}`;
  return {
    baseUrl,
    keyPrefix,
    clock,
    eventStoreConnectionString: started.eventStoreConnectionString,
    ...(started.metricsPort !== undefined ? { metricsUrl: `http://127.0.0.1:${started.metricsPort}/metrics` } : {}),
    request: requestAt(baseUrl),
    async stop(opts = {}) {
      const keepRedis = opts.keepRedis === true;
      // Read before the store stops: the read model may not have projected a queue configured just before.
      const queues = keepRedis ? [] : await queuesInLog(started.eventStoreConnectionString);
      await shutdown.run('test finished');
      await removeState(keepRedis);
      await deleteClientQueues(queues, config.amqpUrl);
    },
  };
}

/**
 * TestApp's `request` against any tagtrail HTTP address (an in-process app, a
 * child process): admin credentials unless told, JSON in and out, every
 * answer checked against the OpenAPI document.
 */
export function requestAt(baseUrl: string): TestApp['request'] {
  return async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    const auth = opts.auth === undefined ? ADMIN : opts.auth;
    if (auth !== null) headers['Authorization'] = auth;
    let body: string | undefined = opts.raw;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['Content-Type'] = 'application/json';
    } else if (opts.raw !== undefined) headers['Content-Type'] ??= 'application/json';
    const res = await fetch(`${baseUrl}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
    if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
      // A stream that never ends (live updates): the status and headers are the answer.
      await res.body?.cancel();
      await checkContract(method, path, res.status, undefined, res.headers.get('content-type'));
      return { status: res.status, headers: res.headers, body: undefined };
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text.length ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    // Every answer is checked against the OpenAPI document (contract.ts).
    await checkContract(method, path, res.status, parsed, res.headers.get('content-type'));
    return { status: res.status, headers: res.headers, body: parsed };
  };
}

/** Polls /healthz until every read model is ready (bounded: a start that never gets there fails the test). */
export async function waitForReadModels(healthUrl: string, timeoutMs = 30_000): Promise<void> {
  const read = async (): Promise<unknown> => (await fetch(healthUrl)).json();
  const ready = (body: unknown): boolean => {
    const models = (body as { readModels?: Record<string, { status?: string }> } | undefined)?.readModels;
    return models !== undefined && !('error' in models) && Object.values(models).every((m) => m.status === 'ready');
  };
  await waitForValue(`every read model to be ready at ${healthUrl}`, read, ready, { timeoutMs, retryErrors: true });
}

/** The sum of every sample of the metrics `names` in a Prometheus text exposition (all their labels). */
export function sumOfMetrics(exposition: string, names: readonly string[]): number {
  let sum = 0;
  for (const line of exposition.split('\n')) {
    const name = /^([a-z_]+)[{ ]/.exec(line)?.[1];
    if (name !== undefined && names.includes(name)) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

const CAUGHT_UP_LAGS = ['tagtrail_engine_lag_events', 'tagtrail_projection_lag_events'];

/** GETs `path` until it answers 200 with a body `ok` accepts (bounded, no timing assertion); returns that body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function getUntil(app: TestApp, path: string, ok: (body: any) => boolean, what = `GET ${path}`, timeoutMs = 30_000): Promise<any> {
  const res = await waitForValue(what, () => app.request('GET', path), (r) => r.status === 200 && ok(r.body), { timeoutMs, intervalMs: 100 });
  return res.body;
}

/**
 * Waits until the service is done with what it was sent: the item engine has
 * handled every input and every read model applied every event (their lags
 * on GET /metrics, which measures them at each scrape). What a test checks
 * after this (nothing came back, nothing more was written) no longer depends
 * on how long it waited.
 */
export async function waitForCaughtUp(app: TestApp, timeoutMs = 30_000): Promise<void> {
  const lag = async (): Promise<number | undefined> => {
    const res = await app.request('GET', '/metrics');
    if (res.status !== 200 || typeof res.body !== 'string') return undefined;
    return sumOfMetrics(res.body, CAUGHT_UP_LAGS);
  };
  await waitFor('the engine and every read model to catch up with the log', async () => (await lag()) === 0, { timeoutMs, intervalMs: 100 });
}

/** The newest events looked at for queue configurations (older ones are in the read model by then). */
const NEWEST_EVENTS = 10_000;

/**
 * The client queues configured among the newest events of a service's log.
 * A test often configures a queue as its last step and stops the service
 * before the configuration read model lists it: the log has it already.
 */
async function queuesInLog(connectionString: string): Promise<string[]> {
  const client = EventStoreDBClient.connectionString(connectionString);
  const names: string[] = [];
  // A store that no longer answers (a test stopped it) must not hold up the stop.
  const bound = setTimeout(() => void client.dispose(), 3000);
  try {
    for await (const r of client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: NEWEST_EVENTS })) {
      const e = r.event;
      if (e?.type !== 'QueueConfigured' || !e.streamId.startsWith(QUEUE_STREAM_PREFIX)) continue;
      const data: unknown = e.data;
      if (typeof data === 'object' && data !== null && 'queue' in data && typeof data.queue === 'string') names.push(data.queue);
    }
  } catch {
    // A store that is gone (a test stopped it) has nothing to tell: the read model's list is what is left.
  } finally {
    clearTimeout(bound);
    await client.dispose();
  }
  return names;
}
