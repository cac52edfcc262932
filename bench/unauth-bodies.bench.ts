// npm run bench:unauth-bodies — what unauthenticated clients sending large
// bodies cost an authenticated client. tagtrail runs as a child process (all
// roles, its own data directory, Redis prefix and ports); this process makes
// the load.
//   1. idle: BENCH_GETS authenticated GETs (Basic) of the facility list, one
//      after the other: their latency is the raw figure of this machine;
//   2. headers only: BENCH_CLIENTS clients without credentials POST to a
//      configuration route without a body, again and again (on a worker
//      thread), while the same GETs run: the cost of refusing requests;
//   3. bodies: the same clients POST a BENCH_BODY_MIB MiB JSON body each.
// Bodies are read only after a route's guard, so a refused POST costs its
// headers: the p50 of 3 stays near that of 2. (Bodies parsed before the
// guard took an authenticated GET from p50 5 ms to 1,242 ms with 10 clients.)
// Figures go to stdout as a table and one JSON line; progress to stderr.
import http from 'node:http';
import { Worker } from 'node:worker_threads';
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { percentile, progress } from './support/stats';
import { freePort } from './support/ports';
import { positiveEnv } from './support/env';
import { startChild } from './support/child';
import { removeRunState } from './support/cleanup';

const GETS = positiveEnv('BENCH_GETS', 300);
const CLIENTS = positiveEnv('BENCH_CLIENTS', 10);
const BODY_MIB = positiveEnv('BENCH_BODY_MIB', 9);
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const ADMIN = `Basic ${Buffer.from('admin:admindefault').toString('base64')}`;

interface Lat {
  p50: number;
  p99: number;
  max: number;
}

async function timedGets(port: number, n: number): Promise<Lat> {
  const ms: number[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request({ port, host: '127.0.0.1', path: '/itemsense/configuration/v1/facilities/show', headers: { Authorization: ADMIN }, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
    if (status !== 200) throw new Error(`authenticated GET answered ${status}`);
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  agent.destroy();
  ms.sort((a, b) => a - b);
  const r = (x: number): number => Math.round(x * 10) / 10;
  return { p50: r(percentile(ms, 50)), p99: r(percentile(ms, 99)), max: r(ms[ms.length - 1] ?? NaN) };
}

// The clients without credentials run on a worker thread of their own, so
// their event loop does not delay the timed GETs. Plain JavaScript: a worker
// evaluates it as is. Each POSTs the body to a configuration route again and
// again until told to stop, then posts back the count of answers by status.
const ATTACKERS = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { port, clients, bytes } = workerData;
const body = Buffer.alloc(bytes, 120);
if (bytes > 0) { body[0] = 123; body[bytes - 1] = 125; }
const statuses = {};
let running = true;
const one = () => new Promise((resolve) => {
  const req = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/itemsense/configuration/v1/facilities/create',
    headers: { 'Content-Type': 'application/json', 'Content-Length': bytes } }, (res) => {
    statuses[res.statusCode] = (statuses[res.statusCode] || 0) + 1;
    res.resume();
    res.on('end', resolve);
    res.on('error', resolve);
  });
  // The service closes the connection after refusing: the rest of the upload fails here.
  req.on('error', resolve);
  req.end(body);
});
const loops = Array.from({ length: clients }, async () => { while (running) await one(); });
parentPort.on('message', async () => { running = false; await Promise.all(loops); parentPort.postMessage(statuses); });
`;

interface Load {
  stop(): Promise<Record<string, number>>;
}

function startLoad(port: number, clients: number, bytes: number): Load {
  const worker = new Worker(ATTACKERS, { eval: true, workerData: { port, clients, bytes } });
  return {
    stop: () =>
      new Promise((resolve, reject) => {
        worker.once('message', (statuses: Record<string, number>) => void worker.terminate().then(() => resolve(statuses)));
        worker.once('error', reject);
        worker.postMessage('stop');
      }),
  };
}

const row = (label: string, l: Lat): string => `${label.padEnd(34)} ${String(l.p50).padStart(7)} ${String(l.p99).padStart(7)} ${String(l.max).padStart(7)}`;
const ratioOf = (a: number, b: number): number => Math.round((a / b) * 100) / 100;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tagtrail-bench-unauth-'));
  const prefix = `tagtrail-bench-${crypto.randomUUID()}:`;
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', EVENTSTORE_PORT: '0', DATA_DIR: dataDir, REDIS_KEY_PREFIX: prefix, LOG_LEVEL: 'info' };
  const child = await startChild('src/main.ts', env, 'started');
  try {
    progress('warming up');
    await timedGets(port, 20);
    progress(`idle: ${GETS} authenticated GETs`);
    const idle = await timedGets(port, GETS);
    progress(`${CLIENTS} clients without credentials sending no body`);
    const headersLoad = startLoad(port, CLIENTS, 0);
    const headersOnly = await timedGets(port, GETS);
    const headersRefused = await headersLoad.stop();
    progress(`${CLIENTS} clients without credentials sending ${BODY_MIB} MiB bodies`);
    const bodiesLoad = startLoad(port, CLIENTS, BODY_MIB * 1024 * 1024);
    const bodies = await timedGets(port, GETS);
    const bodiesRefused = await bodiesLoad.stop();
    const [l1, l5, l15] = loadavg().map((v) => +v.toFixed(2));
    console.log(`unauthenticated bodies benchmark — ${new Date().toISOString()}, ${cpus().length} CPUs, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}, load average ${l1} ${l5} ${l15}`);
    console.log(`${'authenticated GET, ms'.padEnd(34)}     p50     p99     max`);
    console.log(row('idle', idle));
    console.log(row(`${CLIENTS} unauthenticated, no body`, headersOnly));
    console.log(row(`${CLIENTS} unauthenticated, ${BODY_MIB} MiB bodies`, bodies));
    console.log(`p50 with bodies / without: ${ratioOf(bodies.p50, headersOnly.p50)}; / idle: ${ratioOf(bodies.p50, idle.p50)}`);
    console.log(`refused requests by status: no body ${JSON.stringify(headersRefused)}, ${BODY_MIB} MiB bodies ${JSON.stringify(bodiesRefused)}`);
    console.log(
      JSON.stringify({
        bench: 'unauth-bodies', at: new Date().toISOString(), loadavg: [l1, l5, l15], clients: CLIENTS, bodyMiB: BODY_MIB, gets: GETS,
        idle, headersOnly, bodies, ratioToHeadersOnly: ratioOf(bodies.p50, headersOnly.p50), headersRefused, bodiesRefused,
      }),
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await removeRunState(REDIS_URL, prefix, dataDir);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
