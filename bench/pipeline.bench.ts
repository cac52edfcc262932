// npm run bench:pipeline — the whole pipeline on this machine: synthetic
// readers post tag reports through the agent API, the engine turns them into
// ItemsChanged, the items projection makes them queryable.
//
// The service runs as child processes (BENCH_LAYOUT: one `npm start` by
// default, or split by roles; temp DATA_DIR, free ports, a Redis key prefix
// of its own), so the load
// generator does not share an event loop with it. Three figures (BENCH_PHASES
// picks them), plus the CPU time per 1000 observations of each process:
//   1. sustained observations/s: BENCH_READERS readers post reports of
//      BENCH_OBSERVATIONS observations each, BENCH_CONCURRENCY in flight per
//      reader, for BENCH_SECONDS; "accepted" counts what the API answered 200,
//      "end to end" divides by the time until a marker report posted after the
//      load is queryable as an item (everything before it went through the
//      engine and the items projection);
//   2. report accepted -> item queryable latency (fresh EPC, poll
//      GET /data/v1/items/show?epcPrefix=…), BENCH_LATENCY_SAMPLES samples
//      at each share of the load in BENCH_LATENCY_LOADS (default 1,0.1): the
//      readers keep posting, paced, at that share of the end-to-end rate of
//      phase 1 (or of BENCH_LATENCY_RATE observations/s when set or without
//      phase 1; a share of 0: no load). The raw limit beside it is the log's own append -> subscriber
//      latency (support/log-hop.ts), sampled between the samples; the
//      pipeline has two such hops (report -> engine, output -> projection);
//   3. items query latency for a 1000-item page, unfiltered and by zone, with
//      BENCH_ITEMS (1,000,000) items seeded as ItemsChanged batches of 1000
//      changes appended straight to ENGINE_STREAM; the raw limit beside it is
//      the same page read straight from Redis (ZRANGE BYLEX + HMGET, no HTTP).
// Figures go to stdout as text and one JSON line; progress to stderr.
// Redis keys and the temp dir are removed at the end.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { EventStoreDBClient, BACKWARDS, END } from '@eventstore/db-client';
import { createClient } from 'redis';
import { agentAuthorization } from '../src/agents/guard';
import { ENGINE_STREAM } from '../src/engine/events';
import { percentile, progress, rate } from './support/stats';
import { epcOf, SEED_ZONES, seededItemsEvent } from './support/seed-items';
import { usedMemory } from './support/redis-memory';
import { freePort } from './support/ports';
import { positiveEnv } from './support/env';
import { logHop } from './support/log-hop';
import { setTimeout as sleep } from 'node:timers/promises';

const env = positiveEnv;
const SECONDS = env('BENCH_SECONDS', 10);
const READERS = env('BENCH_READERS', 8);
const OBSERVATIONS = env('BENCH_OBSERVATIONS', 1000);
const CONCURRENCY = env('BENCH_CONCURRENCY', 2);
const TAGS_PER_READER = env('BENCH_TAGS_PER_READER', 5000);
const LATENCY_SAMPLES = env('BENCH_LATENCY_SAMPLES', 200);
const LATENCY_LOADS = (process.env['BENCH_LATENCY_LOADS'] ?? '1,0.1').split(',').map((v) => {
  const share = Number(v);
  if (v.trim() === '' || !Number.isFinite(share) || share < 0) throw new Error('BENCH_LATENCY_LOADS must be shares (0 or more) separated by commas');
  return share;
});
const ITEMS = env('BENCH_ITEMS', 1_000_000);
const QUERY_SAMPLES = env('BENCH_QUERY_SAMPLES', 100);
const ZONES = SEED_ZONES;
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
// A password of its own (not the well-known default), so the service does not warn about the default on stdout.
const ADMIN_PASSWORD = `bench-${crypto.randomUUID()}`;
const ADMIN = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;

const ms2 = (v: number): number => +v.toFixed(2);

/**
 * How the service is laid out in processes: `;` separates processes, `,` the
 * roles of one (`eventstore` alone runs `npm run eventstore`). `single` is
 * one `npm start` with every role.
 */
const LAYOUTS: Record<string, string> = {
  single: 'all',
  // The API and the engine each in a process of their own (docs/operations.md).
  split: 'eventstore;api,jobs,relay;engine,projections',
  split4: 'eventstore;api,jobs,relay;engine;projections',
};
// Single by default: on the shared 2-core machine the split did not raise the rate and slowed the
// items query (docs/benchmarks.md, Pipeline, 2026-11-23).
const LAYOUT = process.env['BENCH_LAYOUT'] ?? 'single';
const PROCESSES = (LAYOUTS[LAYOUT] ?? LAYOUT).split(';').map((p) => p.trim());
/** Which phases run: load (throughput), latency, query (seeding + items query). */
const PHASES = new Set((process.env['BENCH_PHASES'] ?? 'load,latency,query').split(','));

interface Service {
  baseUrl: string;
  esConn: string;
  keyPrefix: string;
  children: Array<{ roles: string; child: ChildProcess }>;
  stop(): Promise<void>;
}

/** User + system CPU time of a process so far, in ms (Linux /proc; clock ticks of 10 ms). */
function cpuMsOf(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

async function startService(): Promise<Service> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tagtrail-bench-pipeline-'));
  const keyPrefix = `tagtrail-bench-${crypto.randomUUID()}:`;
  const [port, esPort] = [await freePort(), await freePort()];
  // BENCH_NODE_ARGS: extra node flags for the service processes, e.g. --max-semi-space-size=32.
  const nodeArgs = ['--require', 'tsx/cjs', ...(process.env['BENCH_NODE_ARGS'] ?? '').split(' ').filter((a) => a !== '')];
  if (process.env['BENCH_CPU_PROF_DIR']) nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${process.env['BENCH_CPU_PROF_DIR']}`);
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    EVENTSTORE_HOST: '127.0.0.1',
    EVENTSTORE_PORT: String(esPort),
    DATA_DIR: dataDir,
    REDIS_KEY_PREFIX: keyPrefix,
    JOB_ACK_TIMEOUT_SECONDS: '120',
    ADMIN_PASSWORD,
    LOG_LEVEL: process.env['BENCH_LOG_LEVEL'] ?? 'warn',
  };
  const children: Service['children'] = [];
  const spawnRoles = (roles: string): ChildProcess => {
    const main = roles === 'eventstore' ? '../src/eventstore/main.ts' : '../src/main.ts';
    const child = spawn(process.execPath, [...nodeArgs, join(__dirname, main)], { env: { ...env, ROLES: roles }, stdio: ['ignore', 'inherit', 'inherit'] });
    children.push({ roles, child });
    return child;
  };
  // The event store first, so the others find it (they wait for it anyway).
  for (const roles of [...PROCESSES].sort((a, b) => Number(b === 'eventstore') - Number(a === 'eventstore'))) spawnRoles(roles);
  const exited = children.map(({ child }) => new Promise<number | null>((r) => (child.exitCode !== null ? r(child.exitCode) : child.once('exit', (code) => r(code)))));
  const baseUrl = `http://127.0.0.1:${port}/itemsense`;
  const cleanup = async (): Promise<void> => {
    const redis = createClient({ url: REDIS_URL });
    await redis.connect();
    let n = 0;
    for await (const keys of redis.scanIterator({ MATCH: `${keyPrefix}*`, COUNT: 1000 })) {
      if (keys.length) n += await redis.del(keys);
    }
    await redis.quit();
    rmSync(dataDir, { recursive: true, force: true });
    progress(`cleaned up: ${n} Redis keys, ${dataDir}`);
  };
  const stop = async (): Promise<void> => {
    // The event store last, so the others shut down cleanly against it.
    const order = [...children.keys()].sort((a, b) => Number(children[a]!.roles === 'eventstore') - Number(children[b]!.roles === 'eventstore'));
    for (const i of order) {
      const { child } = children[i]!;
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited[i];
      }
    }
    await cleanup();
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    const dead = children.find(({ child }) => child.exitCode !== null);
    if (dead) {
      await stop();
      throw new Error(`service process (ROLES=${dead.roles}) exited with ${dead.child.exitCode}`);
    }
    try {
      const res = await fetch(`${baseUrl}/configuration/v1/facilities/show`, { headers: { Authorization: ADMIN } });
      if (res.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error('service did not start in 60 s');
    }
    await sleep(200);
  }
  return { baseUrl, esConn: `esdb://127.0.0.1:${esPort}?tls=false`, keyPrefix, children, stop };
}

async function call(base: string, method: string, path: string, body?: unknown, auth = ADMIN): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const headers: Record<string, string> = { Authorization: auth };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  // A string is JSON text already (reportJsonOf).
  const res = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}) });
  const text = await res.text();
  return { status: res.status, body: text.length ? (JSON.parse(text) as unknown) : undefined };
}

async function must(p: Promise<{ status: number; body: unknown }>, what: string): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = await p;
  if (r.status < 200 || r.status > 299) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

interface Reader {
  name: string;
  auth: string;
  antennaId: number;
}

/** Readers, a recipe and a running job with every reader checked in and acknowledged. */
async function setUp(base: string): Promise<{ jobId: string; readers: Reader[] }> {
  await must(call(base, 'POST', '/configuration/v1/readerConfigurations/create', { name: 'inv', operation: 'INVENTORY', configuration: { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'DUAL_TARGET' } }), 'reader configuration');
  const readers: Reader[] = [];
  for (let r = 0; r < READERS; r++) {
    const name = `bench-${r}`;
    await must(call(base, 'POST', '/configuration/v1/readerDefinitions/create', { name, antennaZones: { '1': ZONES[(2 * r) % ZONES.length], '2': ZONES[(2 * r + 1) % ZONES.length] } }), `reader ${name}`);
    readers.push({ name, auth: '', antennaId: 1 });
  }
  await must(call(base, 'POST', '/configuration/v1/recipes/create', { name: 'rec', type: 'INVENTORY', readerConfigurationName: 'inv', reportingInterval: 1, computeWindow: 1 }), 'recipe');
  const job = await must(call(base, 'POST', '/control/v1/jobs/start', { name: 'bench', recipeName: 'rec', startDelay: 'PT0S' }), 'job');
  const jobId = job.id as string;
  for (const reader of readers) {
    const issued = await must(call(base, 'PUT', `/agent/v1/readers/${reader.name}/secret`), 'secret');
    reader.auth = agentAuthorization(reader.name, issued.secret as string);
  }
  const checkin = { agentId: 'bench', versions: { App: '1.0.0', Firmware: '7.6.1' }, state: 'IDLE' };
  for (const reader of readers) {
    for (let i = 0; ; i++) {
      const res = await must(call(base, 'POST', `/agent/v1/readers/${reader.name}/checkin`, checkin, reader.auth), 'checkin');
      if (res.assignment?.jobId === jobId) break;
      if (i > 300) throw new Error(`${reader.name}: no assignment: ${JSON.stringify(res)}`);
      await sleep(100);
    }
    await must(call(base, 'POST', `/agent/v1/readers/${reader.name}/assignments/${jobId}/ack`, undefined, reader.auth), 'ack');
  }
  return { jobId, readers };
}

/**
 * A report of the last second: like a reader's, each observation has its own
 * firstSeen/lastSeen (milliseconds apart) and RSSI, so nothing in the service
 * gains from repeated values that real reports do not have.
 */
const reportOf = (jobId: string, epcs: string[], antennaId: number) => {
  const now = Date.now();
  const times = Array.from({ length: 1000 }, (_, k) => new Date(now - 999 + k).toISOString());
  return {
    reportId: crypto.randomUUID(),
    jobId,
    from: times[0]!,
    to: times[999]!,
    observations: epcs.map((epc, i) => ({
      epc,
      tid: null,
      antennaId,
      peakRssi: -40 - ((i * 7) % 300) / 10,
      readCount: 1 + (i % 5),
      firstSeen: times[(i * 7) % 500]!,
      lastSeen: times[500 + ((i * 13) % 500)]!,
      x: null,
      y: null,
    })),
  };
};

/** Per observation index: the fields that do not depend on the tag or the time (see reportOf). */
const fixedParts = Array.from({ length: 1000 }, (_, i) => `,"tid":null,"antennaId":1,"peakRssi":${-40 - ((i * 7) % 300) / 10},"readCount":${1 + (i % 5)},"firstSeen":"`);

/**
 * reportOf(jobId, epcs, 1) as JSON text, built from strings: the load
 * generator shares the machine's two cores with the service, and building
 * and serialising 1000 objects a report was most of its CPU time.
 */
function reportJsonOf(jobId: string, epcs: readonly string[]): string {
  const now = Date.now();
  const times = Array.from({ length: 1000 }, (_, k) => new Date(now - 999 + k).toISOString());
  const parts = new Array<string>(epcs.length);
  for (let i = 0; i < epcs.length; i++) {
    parts[i] = `{"epc":"${epcs[i]!}"${fixedParts[i % 1000]!}${times[(i * 7) % 500]!}","lastSeen":"${times[500 + ((i * 13) % 500)]!}","x":null,"y":null}`;
  }
  return `{"reportId":"${crypto.randomUUID()}","jobId":${JSON.stringify(jobId)},"from":"${times[0]!}","to":"${times[999]!}","observations":[${parts.join(',')}]}`;
}

/** Posts a report (an object, or JSON text from reportJsonOf). */
async function postReport(base: string, reader: Reader, body: unknown): Promise<void> {
  const res = await call(base, 'POST', `/agent/v1/readers/${reader.name}/reports`, body, reader.auth);
  if (res.status !== 200) throw new Error(`report of ${reader.name}: ${res.status} ${JSON.stringify(res.body)}`);
}

/** Polls items/show until the EPC is listed; the time it took from `since`. */
async function untilQueryable(base: string, epc: string, since: number, timeoutMs: number, pollMs: number): Promise<number> {
  const deadline = since + timeoutMs;
  for (;;) {
    const res = await call(base, 'GET', `/data/v1/items/show?epcPrefix=${epc}`);
    if (res.status === 200 && (res.body.items as Array<{ epc: string }>).some((i) => i.epc === epc)) return performance.now() - since;
    if (performance.now() > deadline) throw new Error(`${epc} not queryable after ${timeoutMs} ms`);
    await sleep(pollMs);
  }
}

/**
 * Every reader's tags seen once, a report of at most 1000 at a time, each
 * waited for: the timed load is then steady state (tags re-read where they
 * are). Posting them all at once makes engine batches of tens of thousands of
 * FIRST_SEEN changes, whose ItemsChanged exceeds the event store's maximum
 * append size (1 MiB): the engine fails and resyncs into the same failure.
 */
async function warmUp(base: string, jobId: string, readers: Reader[]): Promise<void> {
  for (const [r, reader] of readers.entries()) {
    for (let first = 0; first < TAGS_PER_READER; first += 1000) {
      const epcs = Array.from({ length: Math.min(1000, TAGS_PER_READER - first) }, (_, i) => epcOf(0x10 + r, first + i));
      const s = performance.now();
      await postReport(base, reader, reportOf(jobId, epcs, 1));
      await untilQueryable(base, epcs.at(-1)!, s, 60_000, 20);
    }
    progress(`warm-up: reader ${r + 1}/${readers.length}, ${(r + 1) * TAGS_PER_READER} tags in place`);
  }
}

async function throughput(svc: Service, jobId: string, readers: Reader[]) {
  const base = svc.baseUrl;
  let reports = 0;
  // CPU time of each service process and of this load generator over load + drain: a figure that the
  // other work on a shared machine disturbs less than the rate.
  const tagEpcs = readers.map((_, r) => Array.from({ length: TAGS_PER_READER }, (_, k) => epcOf(0x10 + r, k)));
  const cpu0 = svc.children.map(({ child }) => cpuMsOf(child.pid));
  const own0 = process.cpuUsage();
  const lat: number[] = [];
  const deadline = Date.now() + SECONDS * 1000;
  let lastProgress = Date.now();
  const t0 = performance.now();
  await Promise.all(
    readers.flatMap((reader, r) =>
      Array.from({ length: CONCURRENCY }, async (_, w) => {
        let next = w * OBSERVATIONS;
        while (Date.now() < deadline) {
          const epcs = Array.from({ length: OBSERVATIONS }, (_, i) => tagEpcs[r]![(next + i) % TAGS_PER_READER]!);
          next += OBSERVATIONS * CONCURRENCY;
          const s = performance.now();
          await postReport(base, reader, reportJsonOf(jobId, epcs));
          lat.push(performance.now() - s);
          reports++;
          if (Date.now() - lastProgress > 2000) {
            lastProgress = Date.now();
            progress(`load: ${reports * OBSERVATIONS} observations accepted, ${rate(reports * OBSERVATIONS, performance.now() - t0)}/s`);
          }
        }
      }),
    ),
  );
  const acceptedMs = performance.now() - t0;
  // A marker after the load: when it is queryable, everything appended before it went through engine and projection.
  const marker = epcOf(0x01, 0);
  const m0 = performance.now();
  await postReport(base, readers[0]!, reportOf(jobId, [marker], 1));
  progress('load done; waiting for the engine and the items projection to drain it');
  await untilQueryable(base, marker, m0, 600_000, 50);
  const drainedMs = performance.now() - t0;
  const own = process.cpuUsage(own0);
  lat.sort((a, b) => a - b);
  const observations = reports * OBSERVATIONS;
  const cpuMs = svc.children.map(({ roles, child }, i) => ({ roles, cpuMs: cpuMsOf(child.pid) - cpu0[i]! }));
  const serviceCpuMs = cpuMs.reduce((sum, c) => sum + c.cpuMs, 0);
  return {
    readers: READERS,
    observationsPerReport: OBSERVATIONS,
    inFlight: READERS * CONCURRENCY,
    seconds: SECONDS,
    reports,
    observations,
    acceptedPerSec: rate(observations, acceptedMs),
    endToEndPerSec: rate(observations, drainedMs),
    drainAfterLoadMs: Math.round(drainedMs - acceptedMs),
    postP50ms: ms2(percentile(lat, 50)),
    postP99ms: ms2(percentile(lat, 99)),
    /** CPU time per process over load + drain, and its share of one core over that time. */
    cpu: cpuMs.map((c) => ({ ...c, msPer1000: +((c.cpuMs * 1000) / observations).toFixed(2), coreShare: +(c.cpuMs / drainedMs).toFixed(2) })),
    serviceCpuMsPer1000: +((serviceCpuMs * 1000) / observations).toFixed(2),
    loadGeneratorCpuMsPer1000: +((((own.user + own.system) / 1000) * 1000) / observations).toFixed(2),
  };
}

/**
 * Readers posting reports at `perSec` observations/s in all, BENCH_CONCURRENCY
 * workers a reader, each on its own schedule (a late post is not made up by a
 * burst). Resolves with the observations posted once `stop()` is called.
 */
function pacedLoad(base: string, jobId: string, readers: Reader[], perSec: number): { stop(): Promise<number> } {
  let stopping = false;
  let posted = 0;
  const workers = readers.length * CONCURRENCY;
  const intervalMs = (workers * OBSERVATIONS * 1000) / perSec;
  const t0 = performance.now();
  const running = perSec <= 0 ? [] : readers.flatMap((reader, r) =>
    Array.from({ length: CONCURRENCY }, async (_, w) => {
      const tags = Array.from({ length: TAGS_PER_READER }, (_, k) => epcOf(0x10 + r, k));
      let next = w * OBSERVATIONS;
      // Workers spread over the interval, so the load is smooth rather than in waves.
      let due = t0 + ((r * CONCURRENCY + w) * intervalMs) / workers;
      while (!stopping) {
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        if (stopping) break;
        due = Math.max(due + intervalMs, performance.now());
        const epcs = Array.from({ length: OBSERVATIONS }, (_, i) => tags[(next + i) % TAGS_PER_READER]!);
        next += OBSERVATIONS * CONCURRENCY;
        await postReport(base, reader, reportJsonOf(jobId, epcs));
        posted += OBSERVATIONS;
      }
    }),
  );
  return {
    async stop() {
      stopping = true;
      await Promise.all(running);
      return posted;
    },
  };
}

async function latency(svc: Service, jobId: string, readers: Reader[], run: number, share: number, perSec: number) {
  const base = svc.baseUrl;
  const hop = await logHop(svc.esConn);
  const load = pacedLoad(base, jobId, readers, perSec);
  const lat: number[] = [];
  const hops: number[] = [];
  const acks: number[] = [];
  const t0 = performance.now();
  try {
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const { hopMs, ackMs } = await hop.sample();
      hops.push(hopMs);
      acks.push(ackMs);
      // Fresh EPCs per run of the phase (prefixes apart from the readers' 0x10…): every sample is a new item.
      const epc = epcOf(0x80 + run, i);
      const reader = readers[i % readers.length]!;
      const body = reportOf(jobId, [epc], 1);
      await postReport(base, reader, body);
      const accepted = performance.now();
      const took = await untilQueryable(base, epc, accepted, 30_000, 5).catch(() => undefined);
      // Not queryable in 30 s: the pipeline does not keep up with this load; the samples so far are the figure.
      if (took === undefined) {
        progress(`latency at ${share} of the load: sample ${i + 1} not queryable after 30 s; the pipeline falls behind this load`);
        break;
      }
      lat.push(took);
      if ((i + 1) % 50 === 0) progress(`latency at ${share} of the load: ${i + 1}/${LATENCY_SAMPLES}`);
    }
  } finally {
    const posted = await load.stop();
    await hop.close();
    progress(`latency at ${share} of the load: ${rate(posted, performance.now() - t0)} observations/s posted meanwhile`);
  }
  lat.sort((a, b) => a - b);
  hops.sort((a, b) => a - b);
  acks.sort((a, b) => a - b);
  const p99 = percentile(lat, 99);
  const hopP99 = percentile(hops, 99);
  return {
    loadShare: share,
    loadPerSec: Math.round(perSec),
    samples: lat.length,
    /** Fewer samples than asked: one was not queryable within 30 s (the load outran the pipeline). */
    fellBehind: lat.length < LATENCY_SAMPLES,
    p50ms: ms2(percentile(lat, 50)),
    p99ms: ms2(p99),
    maxMs: ms2(lat.at(-1) ?? NaN),
    logHopP50ms: ms2(percentile(hops, 50)),
    logHopP99ms: ms2(hopP99),
    /** The hop's append until acknowledged (durable commit included): the rest of the hop is the delivery. */
    logAckP50ms: ms2(percentile(acks, 50)),
    logAckP99ms: ms2(percentile(acks, 99)),
    /** p99 over the raw limit: two hops of the log at their p99. */
    p99OverTwoHops: +(p99 / (2 * hopP99)).toFixed(1),
  };
}

async function seedItems(svc: Service, jobId: string) {
  const es = EventStoreDBClient.connectionString(svc.esConn);
  const redis = createClient({ url: REDIS_URL });
  await redis.connect();
  const allKey = `${svc.keyPrefix}v1:items:all`;
  try {
    // Keep the engine's resume point: the seeded batches claim the input position its last output covers.
    let inputPosition = '0';
    for await (const e of es.readStream(ENGINE_STREAM, { direction: BACKWARDS, fromRevision: END, maxCount: 1 })) {
      inputPosition = (e.event?.data as { inputPosition?: string } | undefined)?.inputPosition ?? '0';
    }
    const before = await redis.zCard(allKey);
    const memoryBefore = await usedMemory(redis);
    const t0 = performance.now();
    const now = Date.now();
    const BATCH = 1000;
    const IN_FLIGHT = 4; // appends in flight, one ItemsChanged of 1000 changes (~400 KB) each
    let appended = 0;
    let lastProgress = 0;
    const batchOf = (first: number) => {
      const n = Math.min(BATCH, ITEMS - first);
      return { n, event: seededItemsEvent({ first, n, total: ITEMS, now, jobId, inputPosition }) };
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < ITEMS) {
          const { n, event } = batchOf(next);
          next += n;
          await es.appendToStream(ENGINE_STREAM, event);
          appended += n;
          if (performance.now() - lastProgress > 2000) {
            lastProgress = performance.now();
            progress(`seed: ${appended}/${ITEMS} item changes appended; ${(await redis.zCard(allKey)) - before} projected`);
          }
        }
      }),
    );
    const appendMs = performance.now() - t0;
    for (;;) {
      const projected = (await redis.zCard(allKey)) - before;
      if (projected >= ITEMS) break;
      if (performance.now() - lastProgress > 2000) {
        lastProgress = performance.now();
        progress(`seed: items projection ${projected}/${ITEMS}`);
      }
      await sleep(200);
    }
    const totalMs = performance.now() - t0;
    // The read model's memory per seeded item (stored value and every index it is in); Redis is shared, so others' writes count too.
    const usedMemoryBytes = await usedMemory(redis);
    const redisBytesPerItem = Math.round((usedMemoryBytes - memoryBefore) / ITEMS);
    return { items: ITEMS, stored: await redis.zCard(allKey), appendMs: Math.round(appendMs), projectedMs: Math.round(totalMs), projectedPerSec: rate(ITEMS, totalMs), usedMemoryBytes, redisBytesPerItem };
  } finally {
    await redis.quit();
    await es.dispose();
  }
}

async function queries(svc: Service) {
  const run = async (label: string, path: string) => {
    const lat: number[] = [];
    let marker: string | null = null;
    for (let i = 0; i < QUERY_SAMPLES; i++) {
      // Walk forward through the pages (a fresh walk when they run out), so not every sample reads the first page.
      const url = `${path}&pageSize=1000${marker ? `&pageMarker=${encodeURIComponent(marker)}` : ''}`;
      const s = performance.now();
      const res = await call(svc.baseUrl, 'GET', url);
      lat.push(performance.now() - s);
      if (res.status !== 200) throw new Error(`${label}: ${res.status} ${JSON.stringify(res.body)}`);
      const items = res.body.items as unknown[];
      if (items.length !== 1000 && res.body.nextPageMarker) throw new Error(`${label}: a page of ${items.length}`);
      marker = (res.body.nextPageMarker as string | null) ?? null;
    }
    lat.sort((a, b) => a - b);
    return { query: label, samples: lat.length, p50ms: ms2(percentile(lat, 50)), p99ms: ms2(percentile(lat, 99)) };
  };
  progress('items query: unfiltered');
  const unfiltered = await run('unfiltered', '/data/v1/items/show?');
  progress('items query: by zone');
  const byZone = await run('zoneNames=Z3', '/data/v1/items/show?zoneNames=Z3');
  progress('items query: raw Redis page reads');
  const raw = [await rawPages(svc, 'raw unfiltered', 'all'), await rawPages(svc, 'raw zoneNames=Z3', 'zone:Z3')];
  return [unfiltered, byZone, ...raw];
}

/** The raw limit of a page: its 1000 members by lex range and their items by HMGET, straight from Redis in this process. */
async function rawPages(svc: Service, label: string, set: string) {
  const redis = createClient({ url: REDIS_URL });
  await redis.connect();
  try {
    const lat: number[] = [];
    let after = '-';
    for (let i = 0; i < QUERY_SAMPLES; i++) {
      const s = performance.now();
      const epcs = await redis.zRange(`${svc.keyPrefix}v1:items:${set}`, after, '+', { BY: 'LEX', LIMIT: { offset: 0, count: 1000 } });
      const raws = epcs.length > 0 ? await redis.hmGet(`${svc.keyPrefix}v1:items:item`, epcs) : [];
      raws.map((r) => (r == null ? null : JSON.parse(r) as unknown));
      lat.push(performance.now() - s);
      after = epcs.length === 1000 ? `(${epcs.at(-1)}` : '-';
    }
    lat.sort((a, b) => a - b);
    return { query: label, samples: lat.length, p50ms: ms2(percentile(lat, 50)), p99ms: ms2(percentile(lat, 99)) };
  } finally {
    await redis.quit();
  }
}

async function main(): Promise<void> {
  progress(`starting the service: ${PROCESSES.map((p) => `[${p}]`).join(' ')}, each a child process`);
  const svc = await startService();
  try {
    progress(`service at ${svc.baseUrl}; setting up ${READERS} readers and a job`);
    const { jobId, readers } = await setUp(svc.baseUrl);
    progress(`warm-up: ${TAGS_PER_READER} tags a reader`);
    await warmUp(svc.baseUrl, jobId, readers);
    const load = PHASES.has('load')
      ? (progress(`load: ${READERS} readers x ${CONCURRENCY} in flight, ${OBSERVATIONS} observations a report, ${SECONDS} s`), await throughput(svc, jobId, readers))
      : undefined;
    // At once, so the figure survives a later phase that fails.
    if (load) progress(`load figures: ${JSON.stringify(load)}`);
    const lat = [];
    // BENCH_LATENCY_RATE when set (the same load for runs to compare), else what phase 2 sustained.
    const fullLoad = process.env['BENCH_LATENCY_RATE'] !== undefined || load === undefined ? env('BENCH_LATENCY_RATE', 50_000) : load.endToEndPerSec;
    for (const [run, share] of (PHASES.has('latency') ? LATENCY_LOADS : []).entries()) {
      progress(`latency: ${LATENCY_SAMPLES} samples at ${share} of ${fullLoad} observations/s`);
      lat.push(await latency(svc, jobId, readers, run, share, share * fullLoad));
    }
    const seed = PHASES.has('query') ? (progress(`seeding ${ITEMS} items`), await seedItems(svc, jobId)) : undefined;
    const query = seed ? await queries(svc) : [];

    console.log(`\nPipeline benchmark, ${cpus().length} cores, ${cpus()[0]?.model ?? ''}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`);
    console.log(`service processes (BENCH_LAYOUT=${LAYOUT}): ${PROCESSES.map((p) => `[${p}]`).join(' ')}; load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    if (load) {
      console.log(`throughput: ${load.readers} readers x ${CONCURRENCY} in flight, ${load.observationsPerReport} observations a report, ${load.seconds} s: ${load.observations} observations in ${load.reports} reports`);
      console.log(`  accepted by the agent API: ${load.acceptedPerSec} observations/s (report POST p50 ${load.postP50ms} ms, p99 ${load.postP99ms} ms)`);
      console.log(`  end to end (until queryable as items): ${load.endToEndPerSec} observations/s (drained ${load.drainAfterLoadMs} ms after the load stopped) = ${(load.endToEndPerSec / load.acceptedPerSec).toFixed(2)} x accepted (the raw limit: what the API took)   goal >= 100000`);
      console.log(`  CPU per 1000 observations: service ${load.serviceCpuMsPer1000} ms, load generator ${load.loadGeneratorCpuMsPer1000} ms; per process: ${load.cpu.map((c) => `[${c.roles}] ${c.msPer1000} ms (${c.coreShare} of a core)`).join(', ')}`);
    }
    for (const l of lat) {
      console.log(`report accepted -> item queryable, ${l.loadShare} of the load (${l.loadPerSec} observations/s): ${l.samples} samples${l.fellBehind ? ' (then one not queryable in 30 s: fell behind)' : ''}, p50 ${l.p50ms} ms, p99 ${l.p99ms} ms, max ${l.maxMs} ms   goal p99 <= 100 ms`);
      console.log(`  raw limit, the log's append -> subscriber (two per report): p50 ${l.logHopP50ms} ms, p99 ${l.logHopP99ms} ms (of which the append until acknowledged, durable: p50 ${l.logAckP50ms} ms, p99 ${l.logAckP99ms} ms); item p99 = ${l.p99OverTwoHops} x two hops`);
    }
    if (seed) console.log(`seeded ${seed.items} items (${seed.stored} stored): appended in ${seed.appendMs} ms, projected after ${seed.projectedMs} ms (${seed.projectedPerSec} items/s); Redis used_memory ${(seed.usedMemoryBytes / 2 ** 30).toFixed(2)} GiB, ${seed.redisBytesPerItem} bytes per item`);
    for (const q of query) console.log(`items query, 1000-item page, ${q.query}: ${q.samples} samples, p50 ${q.p50ms} ms, p99 ${q.p99ms} ms${q.query.startsWith("raw") ? "" : "   goal p50 <= 10 ms, p99 <= 50 ms"}`);
    console.log(JSON.stringify({ layout: PROCESSES, loadAverage: loadavg(), throughput: load, latency: lat, seed, queries: query }));
  } finally {
    await svc.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
