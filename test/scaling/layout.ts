// The scale-out layout of docs/scaling.md as separate child processes on this
// machine: the embedded event store alone (`npm run eventstore`), two `api`
// processes, two `engine` processes (ENGINE_PARTITIONS=2), one
// `projections`, one `relay,jobs`. Every process gets a data directory of its
// own, the same Redis prefix, PAGE_MARKER_KEY and READER_SECRET_KEY, and the
// store's connection string; ports are picked by the OS and read from the
// processes' logs. What runs the layout for test/scaling/*.e2e.spec.ts.
import { randomBytes } from 'node:crypto';
import { requestAt, type TestApp } from '../support/app';
import { SkewClock } from '../support/clock';
import { childEnv, removeChildState, runEntryPoint, CHILD_START_MS, type LogLine, type RunningProcess } from '../support/tagtrailProcess';
import { removeRedisKeys, testRedisPrefix } from '../support/redis-prefix';

export interface LayoutProcess {
  readonly name: string;
  readonly proc: RunningProcess;
  /** `http://127.0.0.1:PORT/metrics`: its METRICS_PORT listener. */
  readonly metricsUrl: string;
}

export interface SplitLayout {
  readonly keyPrefix: string;
  readonly eventStoreConnectionString: string;
  /** The two api processes' base URLs (`.../itemsense`). */
  readonly apiUrls: readonly [string, string];
  /** The engine first started (holds partition 0; may own only that one), then the one that may own both. */
  readonly engines: readonly [LayoutProcess, LayoutProcess];
  readonly projections: LayoutProcess;
  readonly relay: LayoutProcess;
  /** A TestApp whose requests go round robin to the api processes, as a load balancer would send them. */
  readonly balanced: TestApp;
  /** SIGTERM to every process still running (SIGKILL after 10 s), then their Redis keys and data directories go. */
  stop(): Promise<void>;
}

export interface LayoutOptions {
  /** ENGINE_LEASE_MS of both engine processes. */
  readonly leaseMs: number;
  /** Further settings of every tagtrail process. */
  readonly env?: Record<string, string>;
}

const started = (name: string, proc: RunningProcess, pred: (l: LogLine) => boolean): Promise<LogLine> =>
  proc.waitForLog(pred, CHILD_START_MS).catch((err: unknown) => {
    throw new Error(`${name}: ${err instanceof Error ? err.message : String(err)}`);
  });

async function stopProcess(p: RunningProcess): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill('SIGTERM');
  const killer = setTimeout(() => p.child.kill('SIGKILL'), 10_000);
  await p.exited;
  clearTimeout(killer);
}

/** A TestApp over several HTTP addresses: each request to the next one. */
function roundRobin(urls: readonly string[], keyPrefix: string, eventStoreConnectionString: string): TestApp {
  const requests = urls.map(requestAt);
  let next = 0;
  return {
    baseUrl: urls[0] ?? '',
    keyPrefix,
    eventStoreConnectionString,
    // The processes run on the system clock: this one is never advanced (advancing it would not move theirs).
    clock: new SkewClock(),
    request: (method, path, opts) => {
      const request = requests[next++ % requests.length];
      if (request === undefined) throw new Error('no api process');
      return request(method, path, opts);
    },
    stop: async () => undefined,
  };
}

export async function startSplitLayout(opts: LayoutOptions): Promise<SplitLayout> {
  const keyPrefix = testRedisPrefix();
  const all: RunningProcess[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(all.map(stopProcess));
    await removeRedisKeys(keyPrefix);
    await removeChildState();
  };
  try {
    const store = runEntryPoint('src/eventstore/main.ts', childEnv({ LOG_LEVEL: 'info' }));
    all.push(store);
    const connectionString = String((await started('event store', store, (l) => l.msg === 'started' && typeof l['connectionString'] === 'string'))['connectionString']);
    const shared = {
      LOG_LEVEL: 'info',
      REDIS_KEY_PREFIX: keyPrefix,
      EVENTSTORE_CONNECTION_STRING: connectionString,
      PAGE_MARKER_KEY: randomBytes(24).toString('hex'),
      READER_SECRET_KEY: randomBytes(32).toString('base64'),
      ENGINE_PARTITIONS: '2',
      ENGINE_LEASE_MS: String(opts.leaseMs),
      SHUTDOWN_TIMEOUT_MS: '5000',
      ...opts.env,
    };
    const spawn = (name: string, vars: Record<string, string>): { name: string; proc: RunningProcess } => {
      const proc = runEntryPoint('src/main.ts', childEnv({ ...shared, ...vars }));
      all.push(proc);
      return { name, proc };
    };
    // The relay, projections and api processes load while the engines take their partitions one after the other.
    const api = [spawn('api 1', { ROLES: 'api' }), spawn('api 2', { ROLES: 'api' })];
    const others = [spawn('projections', { ROLES: 'projections', METRICS_PORT: '0' }), spawn('relay', { ROLES: 'relay,jobs', METRICS_PORT: '0' })];
    const acquired = (partition: number) => (l: LogLine): boolean => l.msg === 'engine partition acquired' && l['partition'] === partition;
    const listening = (l: LogLine): boolean => l.msg === 'http listening';
    const metricsAt = async (p: { name: string; proc: RunningProcess }): Promise<LayoutProcess> => ({
      ...p,
      metricsUrl: `http://127.0.0.1:${Number((await started(p.name, p.proc, listening))['port'])}/metrics`,
    });
    // The first engine may own partition 0 only, so the second (which may own both) finds partition 1 free and runs it.
    const engineA = spawn('engine A', { ROLES: 'engine', ENGINE_PARTITION_IDS: '0', METRICS_PORT: '0' });
    await started(engineA.name, engineA.proc, acquired(0));
    const engineB = spawn('engine B', { ROLES: 'engine', ENGINE_PARTITION_IDS: '0,1', METRICS_PORT: '0' });
    await started(engineB.name, engineB.proc, acquired(1));
    const [apiUrls, engines, [projections, relay]] = await Promise.all([
      Promise.all(api.map(async (p) => `http://127.0.0.1:${Number((await started(p.name, p.proc, listening))['port'])}/itemsense`)),
      Promise.all([metricsAt(engineA), metricsAt(engineB)]),
      Promise.all(others.map(metricsAt)),
      started('relay', others[1]?.proc ?? store, (l) => l.msg === 'relay started'),
    ]);
    const [api1 = '', api2 = ''] = apiUrls;
    const [a, b] = engines;
    if (a === undefined || b === undefined || projections === undefined || relay === undefined) throw new Error('layout incomplete');
    return {
      keyPrefix,
      eventStoreConnectionString: connectionString,
      apiUrls: [api1, api2],
      engines: [a, b],
      projections,
      relay,
      balanced: roundRobin([api1, api2], keyPrefix, connectionString),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The text of an unauthenticated METRICS_PORT listener. */
export async function metricsText(metricsUrl: string): Promise<string> {
  return (await fetch(metricsUrl)).text();
}

/** The value of `name{label="value"}` in a Prometheus text exposition (undefined while absent). */
export function metricValue(exposition: string, name: string, label?: readonly [string, string]): number | undefined {
  for (const line of exposition.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (label !== undefined && !line.includes(`${label[0]}="${label[1]}"`)) continue;
    return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}
