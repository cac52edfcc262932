// npm run bench:eventstore — throughput and latency of the event store through
// the unmodified @eventstore/db-client. Against the embedded store (started in
// a child process on a temp dir) unless EVENTSTORE_CONNECTION_STRING is set.
// Figures go to stdout as a table and one JSON line; progress to stderr.
// The goals (batch-1000 appends and the $all catch-up through the client) are
// printed as ratios to the storage engine's own figures of the same run, with
// the CPU ms each process spent per 1,000 events in that phase (steadier than
// rates on a loaded machine).
// BENCH_BATCHES=1000 runs only the given append batch sizes (default 1,100,1000).
// BENCH_CPU_PROF_DIR=dir writes CPU profiles of the client (this process) and
// the server for the batch-1000 sequential appends and the catch-up there:
// {client,server}-{append1000,catchup}.cpuprofile (npm run bench:profile-top).
import { cpus, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { EventStoreDBClient, jsonEvent, START, END } from '@eventstore/db-client';
import { percentile, progress, rate } from './support/stats';
import { storageBench, type StorageFigures } from './support/storage';
import { startServer, type BenchServer } from './support/eventstore-child';
import { cpuMeter } from './support/cpu';
import { profilePhase } from './support/profiler';

const PAYLOAD = { epc: 'E2801160600002084A8E2F5A', antenna: 3, rssi: -52.5, pad: 'x'.repeat(430) }; // ~500 bytes as JSON
const DURATION_MS = Number(process.env['BENCH_SECONDS'] ?? '5') * 1000;
const BATCHES = (process.env['BENCH_BATCHES'] ?? '1,100,1000').split(',').map(Number);
const PROF_DIR = process.env['BENCH_CPU_PROF_DIR'];

const events = (n: number) => Array.from({ length: n }, (_, i) => jsonEvent({ type: 'BenchEvent', data: { ...PAYLOAD, i } }));

/** CPU ms per 1,000 events of the client (this process) and the server during a phase. */
type CpuPer1000 = Record<string, number>;
interface AppendFigure { batch: number; concurrency: number; appendsPerSec: number; eventsPerSec: number; p50ms: number; p99ms: number; cpuMsPer1000: CpuPer1000 }

/**
 * Runs `phase` (which returns how many events it moved) metering both
 * processes' CPU, and profiling both as `name` when profiles are asked for.
 */
async function measured<T extends { events: number }>(server: BenchServer, name: string | undefined, phase: () => Promise<T>): Promise<T & { cpuMsPer1000: CpuPer1000 }> {
  const profiled = PROF_DIR !== undefined && name !== undefined;
  const stopClient = profiled ? await profilePhase(PROF_DIR, `client-${name}`) : undefined;
  const stopServer = profiled ? server.profile(`server-${name}`) : undefined;
  const cpu = cpuMeter({ client: process.pid, server: server.pid }).start();
  const result = await phase();
  const used = cpu();
  for (const file of await Promise.all([stopClient?.(), stopServer?.()])) if (file) progress(`CPU profile ${file}`);
  const cpuMsPer1000 = Object.fromEntries(Object.entries(used).map(([k, ms]) => [k, +((ms * 1000) / Math.max(1, result.events)).toFixed(2)]));
  return { ...result, cpuMsPer1000 };
}

async function appendBench(client: EventStoreDBClient, batch: number, concurrency: number): Promise<Omit<AppendFigure, 'cpuMsPer1000'> & { events: number }> {
  const payload = events(batch);
  const lat: number[] = [];
  let appends = 0;
  const deadline = Date.now() + DURATION_MS;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      const stream = `bench-${batch}-${concurrency}-${w}-${Date.now()}`;
      while (Date.now() < deadline) {
        const s = performance.now();
        await client.appendToStream(stream, payload.map((e) => jsonEvent({ type: e.type, data: e.data })));
        lat.push(performance.now() - s);
        appends++;
      }
    }),
  );
  const ms = performance.now() - t0;
  lat.sort((a, b) => a - b);
  return { batch, concurrency, events: appends * batch, appendsPerSec: rate(appends, ms), eventsPerSec: rate(appends * batch, ms), p50ms: +percentile(lat, 50).toFixed(2), p99ms: +percentile(lat, 99).toFixed(2) };
}

async function catchUpBench(client: EventStoreDBClient, total: number): Promise<{ events: number; eventsPerSec: number }> {
  let n = 0;
  const t0 = performance.now();
  const sub = client.subscribeToAll({ fromPosition: START });
  await new Promise<void>((resolve, reject) => {
    sub.on('caughtUp', () => resolve());
    sub.on('error', reject);
    sub.on('data', () => {
      n++;
      if (n % 100000 === 0) progress(`catch-up ${n}/${total}`);
    });
  });
  const ms = performance.now() - t0;
  await sub.unsubscribe();
  return { events: n, eventsPerSec: rate(n, ms) };
}

async function latencyBench(client: EventStoreDBClient, samples: number): Promise<{ samples: number; p50ms: number; p99ms: number }> {
  const stream = `bench-latency-${Date.now()}`;
  const sub = client.subscribeToStream(stream, { fromRevision: END });
  await new Promise((r) => sub.once('confirmation', r));
  const lat: number[] = [];
  const sent = new Map<number, number>();
  sub.on('data', (e: { event?: { data: unknown } }) => {
    const i = (e.event?.data as { i: number }).i;
    const s = sent.get(i);
    if (s !== undefined) lat.push(performance.now() - s);
  });
  for (let i = 0; i < samples; i++) {
    sent.set(i, performance.now());
    await client.appendToStream(stream, jsonEvent({ type: 'BenchEvent', data: { ...PAYLOAD, i } }));
    await sleep(2);
  }
  await sleep(200);
  await sub.unsubscribe();
  lat.sort((a, b) => a - b);
  return { samples: lat.length, p50ms: +percentile(lat, 50).toFixed(2), p99ms: +percentile(lat, 99).toFixed(2) };
}

interface Goal { figure: string; eventsPerSec: number; raw: number; ratio: number; goal: number }

/** The goal figures beside the storage engine's raw figure of the same run. */
function goalRatios(appends: AppendFigure[], catchUp: { eventsPerSec: number }, storage: StorageFigures): Goal[] {
  const rawAppend = storage.appends.find((a) => a.batch === 1000 && a.concurrency === 1)?.eventsPerSec ?? NaN;
  const ratio = (n: number, raw: number): number => +(n / raw).toFixed(3);
  return [
    ...appends
      .filter((a) => a.batch === 1000)
      .map((a) => ({ figure: `appends via the client, batch 1000 x${a.concurrency}`, eventsPerSec: a.eventsPerSec, raw: rawAppend, ratio: ratio(a.eventsPerSec, rawAppend), goal: 30_000 })),
    { figure: 'catch-up over $all via the client', eventsPerSec: catchUp.eventsPerSec, raw: storage.scanEventsPerSec, ratio: ratio(catchUp.eventsPerSec, storage.scanEventsPerSec), goal: 50_000 },
  ];
}

async function main(): Promise<void> {
  const server = await startServer();
  const client = EventStoreDBClient.connectionString(server.conn);
  const appendFigures: AppendFigure[] = [];
  try {
    for (const batch of BATCHES) {
      for (const concurrency of [1, 8]) {
        progress(`append batch=${batch} concurrency=${concurrency} for ${DURATION_MS / 1000}s`);
        const name = batch === 1000 && concurrency === 1 ? 'append1000' : undefined;
        const { events: _, ...figure } = await measured(server, name, () => appendBench(client, batch, concurrency));
        appendFigures.push(figure);
      }
    }
    let total = 0n;
    for await (const _ of client.readAll({ fromPosition: END, direction: 'backwards', maxCount: 1 })) total = _.event?.position?.commit ?? 0n;
    progress(`catch-up over $all (${total} events)`);
    const catchUp = await measured(server, 'catchup', () => catchUpBench(client, Number(total)));
    progress('live subscription latency');
    const latency = await latencyBench(client, 1000);
    console.log(`\nEvent store benchmark (${server.conn}), ${cpus().length} cores, ${cpus()[0]?.model ?? ''}`);
    console.log('batch  conc  appends/s  events/s  p50 ms  p99 ms');
    for (const f of appendFigures) {
      console.log(`${String(f.batch).padStart(5)}  ${String(f.concurrency).padStart(4)}  ${String(f.appendsPerSec).padStart(9)}  ${String(f.eventsPerSec).padStart(8)}  ${String(f.p50ms).padStart(6)}  ${String(f.p99ms).padStart(6)}  CPU ms/1,000 events ${JSON.stringify(f.cpuMsPer1000)}`);
    }
    console.log(`catch-up: ${catchUp.events} events, ${catchUp.eventsPerSec} events/s, CPU ms per 1,000 events ${JSON.stringify(catchUp.cpuMsPer1000)}`);
    console.log(`live latency: ${latency.samples} samples, p50 ${latency.p50ms} ms, p99 ${latency.p99ms} ms`);
    progress('storage engine alone (no gRPC, no client)');
    const storage = await storageBench(DURATION_MS, Buffer.from(JSON.stringify({ ...PAYLOAD, i: 0 })));
    console.log('storage engine alone: ' + storage.appends.map((a) => `batch ${a.batch} x${a.concurrency}: ${a.eventsPerSec} events/s`).join('; '));
    console.log(`storage engine alone: $all scan + ReadResp encoding ${storage.scanEventsPerSec} events/s`);
    const goals = goalRatios(appendFigures, catchUp, storage);
    for (const g of goals) console.log(`${g.figure}: ${g.eventsPerSec} events/s = ${g.ratio} of raw ${g.raw} events/s (goal ${g.goal} events/s)`);
    const load = loadavg().map((l) => +l.toFixed(2));
    console.log(`load average ${load.join(' ')}`);
    console.log(JSON.stringify({ appendFigures, catchUp, latency, storage, goals, loadAverage: load }));
  } finally {
    await client.dispose();
    await server.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
