// npm run bench:relay — the AMQP relay against a plain publisher, same run,
// same broker, same queues, same messages.
//
// Processes: the embedded event store (`npm run eventstore`) and tagtrail with
// ROLES=relay, each a child process; this process appends ItemsChanged (the
// engine's output) and QueueConfigured events, consumes every queue, and runs
// the raw publisher. For each queue count K in BENCH_QUEUES (default 1,10,100)
// every queue has an empty filter, so each change becomes K messages:
//   1. raw: one amqplib confirm channel publishes BENCH_MESSAGES persistent
//      messages (the relay's bodies and messageIds) round-robin over the
//      queues, then waits for the confirms; rate = messages / time until the
//      consumer has them all (the broker's limit on this machine);
//   2. relay: ItemsChanged events holding the same number of messages are
//      appended while the relay process is paused (SIGSTOP); rate = messages /
//      time from resuming it (SIGCONT) to the last delivery; then, untimed, the
//      bench waits for the relay's checkpoint to pass the last event (the
//      broker confirmed everything), as the raw phase waits for its confirms,
//      so the next phase does not start on a broker still writing the backlog;
//   3. latency: events paced at about half the relay's rate (BENCH_LATENCY_SECONDS);
//      BENCH_SHOW_LOGS=1 echoes the relay's warnings and errors;
//      per message, delivery time minus the time its append was acknowledged;
//   4. its raw limit: the same messages at the same pace from the raw
//      publisher, publish -> delivery (what the broker and consumer add alone).
// Figures go to stdout as a table and one JSON line; progress to stderr.
// BENCH_CPU_PROF_DIR=dir writes a CPU profile of the relay process there.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { EventStoreDBClient, type EventData, type Position } from '@eventstore/db-client';
import { createClient } from 'redis';
import * as amqp from 'amqplib';
import { encodeEvent } from '../src/core/events';
import { ENGINE_STREAM, itemEvents } from '../src/engine/events';
import { queueEvents } from '../src/queues/events';
import { QUEUE_ARGUMENTS, queueName, queueStream } from '../src/queues/model';
import { itemMessageBody } from '../src/queues/match';
import type { ItemChange } from '../src/engine';
import { percentile, progress, rate } from './support/stats';
import { freePort } from './support/ports';
import { cpuMeter, pidOf } from './support/cpu';
import { positiveEnv } from './support/env';
import { startChild } from './support/child';
import { removeRunState } from './support/cleanup';
import { checkpointReached } from './support/checkpoint';
import { RELAY_SUBSCRIPTION } from '../src/queues/relay';
import { setTimeout as sleep } from 'node:timers/promises';

const num = positiveEnv;
const MESSAGES = num('BENCH_MESSAGES', 50_000);
const CHANGES_PER_EVENT = num('BENCH_CHANGES_PER_EVENT', 100);
const LATENCY_SECONDS = num('BENCH_LATENCY_SECONDS', 5);
/** Raw and relay phases alternate this many times per queue count; the figures are medians (the machine is shared, single runs vary). */
// Five: single rounds of one configuration vary by a factor of 1.5 on the shared two-core machine; a median of five is steadier.
const ROUNDS = num('BENCH_ROUNDS', 5);
// Up to 10 events per append, fewer for large events: an append must stay under the event store's 1 MiB limit
// (an ItemsChanged change is about 400 bytes of JSON).
const EVENTS_PER_APPEND = Math.max(1, Math.min(10, Math.floor(2000 / CHANGES_PER_EVENT)));
const QUEUE_COUNTS = (process.env['BENCH_QUEUES'] ?? '1,10,100').split(',').map(Number);
const AMQP_URL = process.env['AMQP_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672';
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

const hex = (n: number, w: number): string => n.toString(16).toUpperCase().padStart(w, '0');
let epcCounter = 0;
const changeOf = (): ItemChange => {
  const n = epcCounter++;
  return {
    kind: 'ZONE_CHANGE', epc: `E2BE${hex(n, 20)}`, tid: null, jobId: 'bench', fromZone: 'DOCK', toZone: 'SHELF',
    fromFloor: '1', toFloor: '1', fromFacility: 'BENCH', toFacility: 'BENCH', fromX: 1, fromY: 2, toX: 3, toY: 4,
    observationTime: Date.now(), reportToDatabaseEnabled: false, reportToHistoryEnabled: false, reportToMessageQueueEnabled: true,
  };
};

/**
 * Counts deliveries on every queue; resolves `until(n)` when n have arrived;
 * latency per message from the append acknowledgement (the commit as this
 * process sees it). A message can arrive before its append is acknowledged:
 * it is then measured from the start of the append (an upper bound) and
 * counted in `beforeAck`, rather than left out (which would drop the fastest).
 */
class Sink {
  count = 0;
  beforeAck = 0;
  readonly latencies: number[] = [];
  readonly committedAt = new Map<string, number>();
  readonly acked = new Set<string>();
  private waiter: { n: number; resolve: () => void } | undefined;
  firstAt = 0;
  lastAt = 0;

  reset(): void {
    this.count = 0;
    this.beforeAck = 0;
    this.latencies.length = 0;
    this.committedAt.clear();
    this.acked.clear();
  }
  onMessage(msg: amqp.ConsumeMessage): void {
    const now = performance.now();
    this.count++;
    this.lastAt = now;
    const id = String(msg.properties.messageId);
    const eventId = id.slice(0, id.lastIndexOf(':'));
    const committed = this.committedAt.get(eventId);
    if (committed !== undefined) {
      this.latencies.push(now - committed);
      if (!this.acked.has(eventId)) this.beforeAck++;
    }
    if (this.waiter && this.count >= this.waiter.n) {
      this.waiter.resolve();
      this.waiter = undefined;
    }
  }
  until(n: number): Promise<void> {
    if (this.count >= n) return Promise.resolve();
    return new Promise((resolve) => (this.waiter = { n, resolve }));
  }
}

const median = (xs: readonly number[]): number => percentile([...xs].sort((a, b) => a - b), 50);
/** CPU ms per 1000 messages, per process. */
const per1000 = (cpu: Record<string, number>, messages: number): Record<string, number> =>
  Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, Math.round((v * 1000) / messages)]));
const addInto = (sum: Record<string, number>, add: Record<string, number>): void => {
  for (const [k, v] of Object.entries(add)) sum[k] = (sum[k] ?? 0) + v;
};

interface Row {
  queues: number;
  messages: number;
  rawPerSec: number;
  relayPerSec: number;
  ratio: number;
  /** Per round; confirmTailMs: from the last delivery until the relay's checkpoint passed the last event (the broker's confirms lag its deliveries). */
  rounds: Array<{ rawPerSec: number; relayPerSec: number; ratio: number; confirmTailMs: number }>;
  /** CPU ms per 1000 messages of each process during the raw and the relay phases (all rounds). */
  rawCpuPer1000: Record<string, number>;
  relayCpuPer1000: Record<string, number>;
  latencyMessages: number;
  /** The same paced messages from the raw publisher: publish -> delivery. */
  rawP50Ms: number;
  rawP99Ms: number;
  /** Latency messages delivered before this process had the append's acknowledgement (measured from the append's start). */
  latencyBeforeAck: number;
  latencyRatePerSec: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tagtrail-bench-relay-'));
  const keyPrefix = `tagtrail-bench-${crypto.randomUUID()}:`;
  const esPort = await freePort();
  const env = { ...process.env, EVENTSTORE_HOST: '127.0.0.1', EVENTSTORE_PORT: String(esPort), DATA_DIR: dataDir, REDIS_KEY_PREFIX: keyPrefix, LOG_LEVEL: 'info', AMQP_URL };
  const children: ChildProcess[] = [];
  const allQueues: string[] = [];
  const conn = await amqp.connect(AMQP_URL);
  const client = EventStoreDBClient.connectionString(`esdb://127.0.0.1:${esPort}?tls=false`);
  const redis = createClient({ url: REDIS_URL });
  await redis.connect();
  try {
    children.push(await startChild('src/eventstore/main.ts', env, 'started'));
    const relay = await startChild('src/main.ts', { ...env, ROLES: 'relay' }, 'relay started', true);
    children.push(relay);
    progress('event store and relay started');
    const sink = new Sink();
    const consumeCh = await conn.createChannel();
    await consumeCh.prefetch(10_000);
    const rawCh = await conn.createConfirmChannel();
    const rows: Row[] = [];
    const meter = cpuMeter({ bench: process.pid, eventstore: children[0]?.pid, relay: relay.pid, broker: pidOf('beam.smp') });

    for (const k of QUEUE_COUNTS) {
      const queues = Array.from({ length: k }, () => queueName('items', crypto.randomUUID()));
      allQueues.push(...queues);
      for (const q of queues) {
        // As the API does: declare, then record the configuration for the relay.
        await consumeCh.assertQueue(q, { durable: true, arguments: { ...QUEUE_ARGUMENTS } });
        const id = q.slice(q.lastIndexOf('.') + 1);
        await client.appendToStream(queueStream(id), [encodeEvent(queueEvents, { type: 'QueueConfigured', data: { kind: 'items', queue: q, deliveryMode: 'PERSISTENT', filter: {}, configuredAt: new Date().toISOString(), user: 'bench' } as never })]);
        await consumeCh.consume(q, (m) => m && sink.onMessage(m), { noAck: true });
      }
      const changesTotal = Math.max(1, Math.round(MESSAGES / k));
      const events = Math.max(1, Math.ceil(changesTotal / CHANGES_PER_EVENT));
      const messages = events * CHANGES_PER_EVENT * k;

      const rounds: Row['rounds'] = [];
      const rawCpu: Record<string, number> = {};
      const relayCpu: Record<string, number> = {};
      for (let round = 0; round < ROUNDS; round++) {
        // 1. raw publisher
        sink.reset();
        const bodies = Array.from({ length: events * CHANGES_PER_EVENT }, () => Buffer.from(JSON.stringify(itemMessageBody(changeOf()))));
        const t = meter.start();
        let t0 = performance.now();
        for (let i = 0; i < bodies.length; i++) {
          const body = bodies[i] as Buffer;
          for (const q of queues) {
            if (!rawCh.publish('', q, body, { persistent: true, mandatory: true, messageId: `raw:${i}`, contentType: 'application/json' })) await new Promise((r) => rawCh.once('drain', r));
          }
        }
        await rawCh.waitForConfirms();
        await sink.until(messages);
        const rawMs = performance.now() - t0;
        addInto(rawCpu, t());
        progress(`K=${k} round ${round + 1}/${ROUNDS}: raw ${rate(messages, rawMs)} msg/s`);

        // 2. relay: the same number of messages as ItemsChanged, stored while the relay is paused (SIGSTOP), so
        //    the figure is the relay's own (catching up a backlog), not the speed of this process's appends
        sink.reset();
        relay.kill('SIGSTOP');
        let last: Position | undefined;
        for (let e = 0; e < events; e += EVENTS_PER_APPEND) {
          const batch: EventData[] = [];
          const ids: string[] = [];
          for (let j = e; j < Math.min(events, e + EVENTS_PER_APPEND); j++) {
            const id = crypto.randomUUID();
            ids.push(id);
            batch.push(encodeEvent(itemEvents, { type: 'ItemsChanged', data: { inputPosition: '0', at: Date.now(), changes: Array.from({ length: CHANGES_PER_EVENT }, changeOf) } }, undefined, id));
          }
          last = (await client.appendToStream(ENGINE_STREAM, batch)).position;
        }
        const r = meter.start();
        t0 = performance.now();
        relay.kill('SIGCONT');
        await sink.until(messages);
        const relayMs = performance.now() - t0;
        addInto(relayCpu, r());
        const relayPerSec = rate(messages, relayMs);
        // Not timed: the next phase starts once the broker has confirmed all of it (as the raw phase waits for its
        // confirms), not while it still writes the backlog the relay sent ahead of its confirms.
        if (!last) throw new Error('append without a position');
        const confirmTailMs = Math.round(await checkpointReached(client, RELAY_SUBSCRIPTION, last));
        rounds.push({ rawPerSec: rate(messages, rawMs), relayPerSec, ratio: +(relayPerSec / rate(messages, rawMs)).toFixed(2), confirmTailMs });
        progress(`K=${k} round ${round + 1}/${ROUNDS}: relay ${relayPerSec} msg/s, all confirmed ${confirmTailMs} ms after the last delivery`);
      }
      const rawPerSec = median(rounds.map((x) => x.rawPerSec));
      const relayPerSec = median(rounds.map((x) => x.relayPerSec));

      // 3. latency at about half the relay's rate: one event every `interval` ms (at least 20) of `perEvent` changes
      sink.reset();
      const target = relayPerSec * 0.5;
      const perEvent = Math.max(1, Math.round((target * 0.02) / k));
      const interval = Math.max(20, (perEvent * k * 1000) / target);
      const latencyEvents = Math.round((LATENCY_SECONDS * 1000) / interval);
      const start = performance.now();
      for (let i = 0; i < latencyEvents; i++) {
        const id = crypto.randomUUID();
        const event = encodeEvent(itemEvents, { type: 'ItemsChanged', data: { inputPosition: '0', at: Date.now(), changes: Array.from({ length: perEvent }, changeOf) } }, undefined, id);
        sink.committedAt.set(id, performance.now());
        await client.appendToStream(ENGINE_STREAM, [event]);
        sink.committedAt.set(id, performance.now());
        sink.acked.add(id);
        const wait = start + (i + 1) * interval - performance.now();
        if (wait > 0) await sleep(wait);
      }
      const latencyMessages = latencyEvents * perEvent * k;
      await sink.until(latencyMessages);
      const sorted = [...sink.latencies].sort((a, b) => a - b);
      const beforeAck = sink.beforeAck;

      // 4. the raw limit of that latency: the same messages at the same pace from the raw publisher, publish -> delivery
      sink.reset();
      const rawStart = performance.now();
      for (let i = 0; i < latencyEvents; i++) {
        const id = crypto.randomUUID();
        sink.committedAt.set(id, performance.now());
        sink.acked.add(id);
        for (let c = 0; c < perEvent; c++) {
          const body = Buffer.from(JSON.stringify(itemMessageBody(changeOf())));
          for (const q of queues) {
            if (!rawCh.publish('', q, body, { persistent: true, mandatory: true, messageId: `${id}:${c}`, contentType: 'application/json' })) await new Promise((r) => rawCh.once('drain', r));
          }
        }
        const wait = rawStart + (i + 1) * interval - performance.now();
        if (wait > 0) await sleep(wait);
      }
      await rawCh.waitForConfirms();
      await sink.until(latencyMessages);
      const rawSorted = [...sink.latencies].sort((a, b) => a - b);
      rows.push({
        queues: k, messages, rawPerSec, relayPerSec, ratio: +(relayPerSec / rawPerSec).toFixed(2), rounds,
        rawCpuPer1000: per1000(rawCpu, messages * ROUNDS), relayCpuPer1000: per1000(relayCpu, messages * ROUNDS),
        latencyMessages, latencyBeforeAck: beforeAck, latencyRatePerSec: Math.round((perEvent * k * 1000) / interval),
        p50Ms: +percentile(sorted, 50).toFixed(1), p99Ms: +percentile(sorted, 99).toFixed(1), maxMs: +(sorted.at(-1) ?? NaN).toFixed(1),
        rawP50Ms: +percentile(rawSorted, 50).toFixed(1), rawP99Ms: +percentile(rawSorted, 99).toFixed(1),
      });
      progress(`K=${k}: latency p50 ${rows.at(-1)?.p50Ms} ms, p99 ${rows.at(-1)?.p99Ms} ms (${beforeAck} of ${latencyMessages} delivered before the append was acknowledged); raw publisher p50 ${rows.at(-1)?.rawP50Ms} ms, p99 ${rows.at(-1)?.rawP99Ms} ms`);
    }

    const [l1, l5, l15] = loadavg().map((v) => +v.toFixed(2));
    console.log(`relay benchmark — ${new Date().toISOString()}, ${cpus().length} CPUs, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}, load average ${l1} ${l5} ${l15}`);
    console.log('queues  messages  raw msg/s  relay msg/s  relay/raw  latency load msg/s  p50 ms  p99 ms  max ms  raw p50 ms  raw p99 ms');
    for (const r of rows) {
      console.log(`${String(r.queues).padStart(6)}  ${String(r.messages).padStart(8)}  ${String(r.rawPerSec).padStart(9)}  ${String(r.relayPerSec).padStart(11)}  ${r.ratio.toFixed(2).padStart(9)}  ${String(r.latencyRatePerSec).padStart(18)}  ${String(r.p50Ms).padStart(6)}  ${String(r.p99Ms).padStart(6)}  ${String(r.maxMs).padStart(6)}  ${String(r.rawP50Ms).padStart(10)}  ${String(r.rawP99Ms).padStart(10)}`);
    }
    console.log('CPU ms per 1000 messages (raw phase | relay phase): bench, event store, relay, broker');
    for (const r of rows) {
      const f = (c: Record<string, number>): string => ['bench', 'eventstore', 'relay', 'broker'].map((n) => String(c[n] ?? NaN)).join(' ');
      console.log(`${String(r.queues).padStart(6)}  ${f(r.rawCpuPer1000)} | ${f(r.relayCpuPer1000)}   rounds relay/raw ${r.rounds.map((x) => x.ratio.toFixed(2)).join(' ')}, confirm tail ms ${r.rounds.map((x) => x.confirmTailMs).join(' ')}`);
    }
    console.log(JSON.stringify({ bench: 'relay', rounds: ROUNDS, at: new Date().toISOString(), loadavg: [l1, l5, l15], changesPerEvent: CHANGES_PER_EVENT, rows }));
  } finally {
    const ch = await conn.createChannel().catch(() => undefined);
    for (const q of allQueues) await ch?.deleteQueue(q).catch(() => undefined);
    await conn.close().catch(() => undefined);
    await client.dispose().catch(() => undefined);
    await redis.quit().catch(() => undefined);
    for (const c of children.reverse()) {
      // A relay still paused (a failure in the relay phase) would never act on SIGTERM.
      c.kill('SIGCONT');
      c.kill('SIGTERM');
      await new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)));
    }
    await removeRunState(REDIS_URL, keyPrefix, dataDir);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
