// npm run bench:llrp — the LLRP connector on this machine:
//   1. decode: RO_ACCESS_REPORT messages of BENCH_TAGS_PER_MESSAGE TagReportData
//      each (EPC-96, ROSpecID, AntennaID, PeakRSSI, first/last seen,
//      TagSeenCount, ImpinjPeakRSSI: what a Speedway sends), coalesced in
//      64 KiB reads, framed, decoded and folded into a report batch, on one
//      core; against the raw limit of the same bytes: a loop that only walks
//      the TagReportData lengths and copies each EPC out;
//   2. end to end: one service (all roles, a child process), one agent reader
//      posting reports through the agent API and one simulated LLRP reader
//      sending RO_ACCESS_REPORTs to the readers role, in one job; each path's
//      BENCH_E2E_TAGS tags put in place first, then re-read BENCH_E2E_ROUNDS
//      times as fast as the path takes them, then a marker tag: tag reports
//      per second from the first send until the marker is queryable as an
//      item (GET /data/v1/items/show), for each path, and their ratio
//      (LLRP / agent);
//   3. idle: BENCH_IDLE_READERS simulated LLRP readers (in this process) with
//      a reader definition each, a `readers` role in a process of its own
//      (the rest of the service in another) connected to all of them with
//      keepalives every READERS_KEEPALIVE_SECONDS; the readers process's CPU
//      over BENCH_IDLE_SECONDS, as a share of one core.
// Figures go to stdout as text and one JSON line; progress to stderr.
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { LlrpFramer } from '../src/llrp/frame';
import { decodeTagReads, roAccessReport, tagReportData } from '../src/llrp/messages';
import { ReadBatch } from '../src/readers/batch';
import { SimLlrpReader } from '../src/simulator/llrp-reader';
import { defaultAntennas, type ReaderLayout } from '../src/simulator/layout';
import { World } from '../src/simulator/world';
import { silent } from '../test/support/logger';
import { startChild } from './support/child';
import { agentAuthorization } from '../src/agents/guard';
import { cpuMsOf } from './support/cpu';
import { removeRunState } from './support/cleanup';
import { positiveEnv } from './support/env';
import { freePort } from './support/ports';
import { progress, rate } from './support/stats';
import { setTimeout as sleep } from 'node:timers/promises';

const TAGS_PER_MESSAGE = positiveEnv('BENCH_TAGS_PER_MESSAGE', 100);
const DECODE_SECONDS = positiveEnv('BENCH_DECODE_SECONDS', 5);
const IDLE_READERS = positiveEnv('BENCH_IDLE_READERS', 200);
const IDLE_SECONDS = positiveEnv('BENCH_IDLE_SECONDS', 30);
const KEEPALIVE_SECONDS = positiveEnv('READERS_KEEPALIVE_SECONDS', 10);
const E2E_TAGS = positiveEnv('BENCH_E2E_TAGS', 2000);
const E2E_ROUNDS = positiveEnv('BENCH_E2E_ROUNDS', 10);
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const ADMIN_PASSWORD = `bench-${crypto.randomUUID()}`;
const ADMIN = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;

function reportStream(): { bytes: Buffer; tags: number } {
  const t = Date.now() * 1000;
  const messages: Buffer[] = [];
  for (let m = 0; m < 200; m++) {
    const reads = Array.from({ length: TAGS_PER_MESSAGE }, (_, i) =>
      tagReportData({ epc: `E280${(m * TAGS_PER_MESSAGE + i).toString(16).padStart(20, '0')}`, antennaId: 1 + (i % 4), peakRssiCdbm: -5500 - i, firstSeenUs: t + i, lastSeenUs: t + i + 500, seenCount: 1 + (i % 3), roSpecId: 1, impinjPeakRssi: true }),
    );
    messages.push(roAccessReport(m, reads));
  }
  return { bytes: Buffer.concat(messages), tags: 200 * TAGS_PER_MESSAGE };
}

/** Runs `pass` over the stream until DECODE_SECONDS passed; tag reports per second. */
function timed(stream: { bytes: Buffer; tags: number }, pass: (b: Buffer) => number): number {
  let tags = 0;
  const start = process.hrtime.bigint();
  const end = start + BigInt(DECODE_SECONDS) * 1_000_000_000n;
  let now = start;
  while (now < end) {
    tags += pass(stream.bytes);
    now = process.hrtime.bigint();
  }
  return rate(tags, Number(now - start) / 1e6);
}

function decodePass(bytes: Buffer): number {
  const framer = new LlrpFramer();
  const batch = new ReadBatch();
  let n = 0;
  for (let at = 0; at < bytes.length; at += 65_536) {
    for (const m of framer.push(bytes.subarray(at, at + 65_536))) {
      const reads = decodeTagReads(m.body);
      batch.add(reads, 0);
      n += reads.length;
    }
  }
  batch.take();
  return n;
}

/** Framing and decoding alone, without the batch (the per-(EPC, antenna) fold and its ISO times). */
function decodeOnlyPass(bytes: Buffer): number {
  const framer = new LlrpFramer();
  let n = 0;
  for (let at = 0; at < bytes.length; at += 65_536) for (const m of framer.push(bytes.subarray(at, at + 65_536))) n += decodeTagReads(m.body).length;
  return n;
}

/** The least any decoder must do: walk messages and TagReportData by their lengths, copy each EPC out. */
function rawPass(bytes: Buffer): number {
  let n = 0;
  let sink = 0;
  for (let at = 0; at < bytes.length; ) {
    const len = bytes.readUInt32BE(at + 2);
    for (let p = at + 10; p < at + len; ) {
      const plen = bytes.readUInt16BE(p + 2);
      sink += bytes.toString('hex', p + 5, p + 17).length; // EPC-96 right after the TagReportData header
      n++;
      p += plen;
    }
    at += len;
  }
  if (sink < 0) throw new Error('unreachable');
  return n;
}

async function call(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await fetch(`${base}${path}`, { method, headers: { Authorization: ADMIN, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const epcOfTag = (path: number, i: number): string => `E28011${path.toString(16).padStart(2, '0')}${i.toString(16).padStart(16, '0')}`.toUpperCase();

/** Polls items/show until `epc` is listed. */
async function untilQueryable(base: string, epc: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(base, 'GET', `/data/v1/items/show?epcPrefix=${epc}`);
    if (res.status === 200 && (res.body.items as Array<{ epc: string }>).some((i) => i.epc === epc)) return;
    if (Date.now() > deadline) throw new Error(`${epc} not queryable after ${timeoutMs} ms`);
    await sleep(20);
  }
}

/** A path's way of sending reads of these EPCs (resolves once sent). */
type Send = (epcs: string[]) => Promise<void>;

/** Tag reports per second from the first send until a marker read after them is queryable. */
async function pathRate(base: string, path: number, send: Send): Promise<number> {
  const tags = Array.from({ length: E2E_TAGS }, (_, i) => epcOfTag(path, i));
  // In place first, 1000 at a time, each chunk waited for: the timed rounds are re-reads (steady state).
  for (let i = 0; i < tags.length; i += 1000) {
    const chunk = tags.slice(i, i + 1000);
    await send(chunk);
    await untilQueryable(base, chunk.at(-1)!);
  }
  const start = performance.now();
  for (let r = 0; r < E2E_ROUNDS; r++) for (let i = 0; i < tags.length; i += 1000) await send(tags.slice(i, i + 1000));
  const marker = epcOfTag(path, E2E_TAGS + 1);
  await send([marker]);
  await untilQueryable(base, marker);
  return rate(E2E_ROUNDS * tags.length + 1, performance.now() - start);
}

async function endToEndPhase(): Promise<{ agentPerSecond: number; llrpPerSecond: number; ratio: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tagtrail-bench-llrp-e2e-'));
  const keyPrefix = `tagtrail-bench-${crypto.randomUUID()}:`;
  const [port, esPort] = [await freePort(), await freePort()];
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', EVENTSTORE_HOST: '127.0.0.1', EVENTSTORE_PORT: String(esPort), DATA_DIR: dataDir, REDIS_KEY_PREFIX: keyPrefix, ADMIN_PASSWORD, LOG_LEVEL: 'info', READERS_KEEPALIVE_SECONDS: String(KEEPALIVE_SECONDS) };
  let service: ChildProcess | undefined;
  let sim: SimLlrpReader | undefined;
  try {
    service = await startChild('src/main.ts', env, 'http listening', true);
    const base = `http://127.0.0.1:${port}/itemsense`;
    const must = async (method: string, path: string, body?: unknown, auth?: string): Promise<any> => { // eslint-disable-line @typescript-eslint/no-explicit-any
      const res = auth === undefined ? await call(base, method, path, body) : await agentCall(base, method, path, auth, body);
      if (res.status !== 200 && res.status !== 204) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    const placement = { x: 0, y: 0, z: 4, floor: null };
    const layout: ReaderLayout = { name: 'bench-llrp-e2e', family: 'SPEEDWAY', placement, antennas: defaultAntennas('SPEEDWAY', placement) };
    // No tags in the world: the simulated reader reads only what the bench sends.
    sim = new SimLlrpReader({ reader: layout, world: World.random({ facility: 'DEFAULT', zoneMapName: '(none)', zones: [], readers: [layout], tags: [] }, 1), seed: 1, t0: Date.now(), timeScale: 1, port: 0, log: silent });
    await sim.listen();
    await must('PUT', '/configuration/v1/readerDefinitions/createOrReplace', { name: layout.name, address: '127.0.0.1', type: 'SPEEDWAY', connection: { protocol: 'LLRP', port: sim.port } });
    await must('PUT', '/configuration/v1/readerDefinitions/createOrReplace', { name: 'bench-agent-e2e', type: 'SPEEDWAY' });
    await must('PUT', '/configuration/v1/readerConfigurations/createOrReplace', { name: 'inv', operation: 'INVENTORY', configuration: { readerMode: 'MAX_THROUGHPUT', session: 2, searchMode: 'DUAL_TARGET' } });
    await must('PUT', '/configuration/v1/recipes/createOrReplace', { name: 'rec', type: 'INVENTORY', readerConfigurationName: 'inv', reportingInterval: 1, computeWindow: 1 });
    const job = await must('POST', '/control/v1/jobs/start', { name: 'bench', recipeName: 'rec', startDelay: 'PT0S' });
    const jobId = job.id as string;
    const secret = (await must('PUT', '/agent/v1/readers/bench-agent-e2e/secret')).secret as string;
    const auth = agentAuthorization('bench-agent-e2e', secret);
    for (let i = 0; ; i++) {
      const res = await must('POST', '/agent/v1/readers/bench-agent-e2e/checkin', { agentId: 'bench', versions: { App: '1.0.0', Firmware: '7.6.1' }, state: 'IDLE' }, auth);
      if (res.assignment?.jobId === jobId) break;
      if (i > 300) throw new Error('the agent reader got no assignment');
      await sleep(100);
    }
    await must('POST', `/agent/v1/readers/bench-agent-e2e/assignments/${jobId}/ack`, undefined, auth);
    for (let i = 0; !sim.reading; i++) {
      if (i > 600) throw new Error('the LLRP reader was never started');
      await sleep(100);
    }
    progress(`end to end: job ${jobId} running on an agent reader and an LLRP reader; ${E2E_TAGS} tags each, ${E2E_ROUNDS} rounds`);
    const agentSend: Send = async (epcs) => {
      const now = new Date().toISOString();
      await must('POST', '/agent/v1/readers/bench-agent-e2e/reports', { reportId: crypto.randomUUID(), jobId, from: now, to: now, observations: epcs.map((epc) => ({ epc, tid: null, antennaId: 1, peakRssi: -55, readCount: 1, firstSeen: now, lastSeen: now, x: null, y: null })) }, auth);
    };
    const llrp = sim;
    const llrpSend: Send = async (epcs) => {
      if (!llrp.sendReads(epcs)) throw new Error('the LLRP reader stopped reading');
      await Promise.resolve();
    };
    const agentPerSecond = await pathRate(base, 1, agentSend);
    progress(`end to end, agent path: ${agentPerSecond.toLocaleString('en')} tag reports/s`);
    const llrpPerSecond = await pathRate(base, 2, llrpSend);
    progress(`end to end, LLRP path: ${llrpPerSecond.toLocaleString('en')} tag reports/s`);
    return { agentPerSecond, llrpPerSecond, ratio: +(llrpPerSecond / agentPerSecond).toFixed(3) };
  } finally {
    if (service !== undefined && service.exitCode === null) {
      const s = service;
      s.kill('SIGTERM');
      await new Promise((r) => s.once('exit', r));
    }
    await sim?.close();
    await removeRunState(REDIS_URL, keyPrefix, dataDir);
  }
}

async function agentCall(base: string, method: string, path: string, auth: string, body?: unknown): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await fetch(`${base}${path}`, { method, headers: { Authorization: auth, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function idlePhase(): Promise<{ connected: number; cpuPercentOfCore: number; seconds: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tagtrail-bench-llrp-'));
  const keyPrefix = `tagtrail-bench-${crypto.randomUUID()}:`;
  const [port, esPort] = [await freePort(), await freePort()];
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', EVENTSTORE_HOST: '127.0.0.1', EVENTSTORE_PORT: String(esPort), DATA_DIR: dataDir, REDIS_KEY_PREFIX: keyPrefix, ADMIN_PASSWORD, LOG_LEVEL: 'info', READERS_KEEPALIVE_SECONDS: String(KEEPALIVE_SECONDS) };
  const children: ChildProcess[] = [];
  const sims: SimLlrpReader[] = [];
  try {
    children.push(await startChild('src/main.ts', { ...env, ROLES: 'eventstore,api,projections,jobs' }, 'http listening'));
    const base = `http://127.0.0.1:${port}/itemsense`;
    const layouts: ReaderLayout[] = Array.from({ length: IDLE_READERS }, (_, i) => {
      const placement = { x: i * 10, y: 0, z: 4, floor: null };
      return { name: `bench-llrp-${i}`, family: 'SPEEDWAY', placement, antennas: defaultAntennas('SPEEDWAY', placement) };
    });
    const world = World.random({ facility: 'DEFAULT', zoneMapName: '(none)', zones: [], readers: layouts, tags: [] }, 1);
    for (const reader of layouts) {
      const sim = new SimLlrpReader({ reader, world, seed: 1, t0: Date.now(), timeScale: 1, port: 0, log: silent });
      await sim.listen();
      sims.push(sim);
      const res = await call(base, 'PUT', '/configuration/v1/readerDefinitions/createOrReplace', { name: reader.name, address: '127.0.0.1', type: 'SPEEDWAY', connection: { protocol: 'LLRP', port: sim.port } });
      if (res.status !== 200) throw new Error(`reader definition: ${res.status} ${JSON.stringify(res.body)}`);
    }
    progress(`${IDLE_READERS} simulated LLRP readers listening, definitions created`);
    const readersRole = await startChild('src/main.ts', { ...env, ROLES: 'readers' }, 'starting');
    children.push(readersRole);
    const deadline = Date.now() + 120_000;
    let connected = 0;
    while (connected < IDLE_READERS) {
      const health = await call(base, 'GET', '/health/v1/readers');
      connected = (health.body as Array<{ state: string }>).filter((h) => h.state === 'IDLE').length;
      if (Date.now() > deadline) throw new Error(`only ${connected} of ${IDLE_READERS} readers connected in 120 s`);
      await sleep(1000);
    }
    progress(`all ${connected} connected; measuring the readers process for ${IDLE_SECONDS} s`);
    await sleep(2000);
    const pid = readersRole.pid as number;
    const cpu0 = cpuMsOf(pid);
    const t0 = Date.now();
    await sleep(IDLE_SECONDS * 1000);
    const cpu = cpuMsOf(pid) - cpu0;
    const seconds = (Date.now() - t0) / 1000;
    return { connected, cpuPercentOfCore: +((cpu / (seconds * 1000)) * 100).toFixed(2), seconds: +seconds.toFixed(1) };
  } finally {
    for (const c of children.reverse()) {
      if (c.exitCode === null) {
        c.kill('SIGTERM');
        await new Promise((r) => c.once('exit', r));
      }
    }
    for (const s of sims) await s.close();
    await removeRunState(REDIS_URL, keyPrefix, dataDir);
  }
}

async function main(): Promise<void> {
  const stream = reportStream();
  progress(`decode: ${stream.tags} tag reports in ${stream.bytes.length} bytes, ${DECODE_SECONDS} s per pass`);
  timed(stream, decodePass); // warm-up
  const raw = timed(stream, rawPass);
  const decoded = timed(stream, decodePass);
  const decodeOnly = timed(stream, decodeOnlyPass);
  const phases = process.env['BENCH_PHASES'];
  const e2e = phases?.includes('e2e') === false ? null : await endToEndPhase();
  const idle = phases?.includes('idle') === false ? null : await idlePhase();
  const machine = { cpus: cpus().length, model: cpus()[0]?.model ?? '?', loadavg: loadavg().map((l) => +l.toFixed(2)), node: process.version };
  const lines = [
    `LLRP decode (one core, RO_ACCESS_REPORT): ${decoded.toLocaleString('en')} tag reports/s per core framed, decoded and batched; raw walk ${raw.toLocaleString('en')}/s; ratio ${(decoded / raw).toFixed(2)} (framing and decoding alone ${decodeOnly.toLocaleString('en')}/s, ratio ${(decodeOnly / raw).toFixed(2)})`,
    e2e === null ? 'end to end: skipped' : `end to end (report -> queryable item), same run: LLRP readers ${e2e.llrpPerSecond.toLocaleString('en')} tag reports/s, agent API ${e2e.agentPerSecond.toLocaleString('en')}/s; LLRP / agent ${e2e.ratio}`,
    idle === null ? 'idle: skipped' : `idle: ${idle.connected} LLRP readers connected, keepalive ${KEEPALIVE_SECONDS} s: readers process ${idle.cpuPercentOfCore}% of a core over ${idle.seconds} s`,
    `machine: ${machine.cpus} cores (${machine.model}), load ${machine.loadavg.join(' ')}, node ${machine.node}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  process.stdout.write(`${JSON.stringify({ bench: 'llrp', tagsPerMessage: TAGS_PER_MESSAGE, decodePerSecond: decoded, decodeOnlyPerSecond: decodeOnly, rawPerSecond: raw, ratio: +(decoded / raw).toFixed(3), e2e, idle, machine })}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:llrp failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
