// npm run bench:eventstore — throughput and latency of the event store through
// the unmodified @eventstore/db-client. Against the embedded store (started in
// a child process on a temp dir) unless EVENTSTORE_CONNECTION_STRING is set.
// Figures go to stdout as a table and one JSON line; progress to stderr.
import { cpus } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { EventStoreDBClient, jsonEvent, START, END } from '@eventstore/db-client';
import { percentile, progress, rate } from './support/stats';
import { storageBench } from './support/storage';
import { startServer } from './support/eventstore-child';

const PAYLOAD = { epc: 'E2801160600002084A8E2F5A', antenna: 3, rssi: -52.5, pad: 'x'.repeat(430) }; // ~500 bytes as JSON
const DURATION_MS = Number(process.env['BENCH_SECONDS'] ?? '5') * 1000;

const events = (n: number) => Array.from({ length: n }, (_, i) => jsonEvent({ type: 'BenchEvent', data: { ...PAYLOAD, i } }));

interface AppendFigure { batch: number; concurrency: number; appendsPerSec: number; eventsPerSec: number; p50ms: number; p99ms: number }

async function appendBench(client: EventStoreDBClient, batch: number, concurrency: number): Promise<AppendFigure> {
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
  return { batch, concurrency, appendsPerSec: rate(appends, ms), eventsPerSec: rate(appends * batch, ms), p50ms: +percentile(lat, 50).toFixed(2), p99ms: +percentile(lat, 99).toFixed(2) };
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

async function main(): Promise<void> {
  const server = await startServer();
  const client = EventStoreDBClient.connectionString(server.conn);
  const appendFigures: AppendFigure[] = [];
  try {
    for (const batch of [1, 100, 1000]) {
      for (const concurrency of [1, 8]) {
        progress(`append batch=${batch} concurrency=${concurrency} for ${DURATION_MS / 1000}s`);
        appendFigures.push(await appendBench(client, batch, concurrency));
      }
    }
    let total = 0n;
    for await (const _ of client.readAll({ fromPosition: END, direction: 'backwards', maxCount: 1 })) total = _.event?.position?.commit ?? 0n;
    progress(`catch-up over $all (${total} events)`);
    const catchUp = await catchUpBench(client, Number(total));
    progress('live subscription latency');
    const latency = await latencyBench(client, 1000);
    console.log(`\nEvent store benchmark (${server.conn}), ${cpus().length} cores, ${cpus()[0]?.model ?? ''}`);
    console.log('batch  conc  appends/s  events/s  p50 ms  p99 ms');
    for (const f of appendFigures) {
      console.log(`${String(f.batch).padStart(5)}  ${String(f.concurrency).padStart(4)}  ${String(f.appendsPerSec).padStart(9)}  ${String(f.eventsPerSec).padStart(8)}  ${String(f.p50ms).padStart(6)}  ${String(f.p99ms).padStart(6)}`);
    }
    console.log(`catch-up: ${catchUp.events} events, ${catchUp.eventsPerSec} events/s`);
    console.log(`live latency: ${latency.samples} samples, p50 ${latency.p50ms} ms, p99 ${latency.p99ms} ms`);
    progress('storage engine alone (no gRPC, no client)');
    const storage = await storageBench(DURATION_MS, Buffer.from(JSON.stringify({ ...PAYLOAD, i: 0 })));
    console.log('storage engine alone: ' + storage.appends.map((a) => `batch ${a.batch} x${a.concurrency}: ${a.eventsPerSec} events/s`).join('; '));
    console.log(`storage engine alone: $all scan + ReadResp encoding ${storage.scanEventsPerSec} events/s`);
    console.log(JSON.stringify({ appendFigures, catchUp, latency, storage }));
  } finally {
    await client.dispose();
    await server.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
