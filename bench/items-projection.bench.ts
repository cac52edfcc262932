// npm run bench:items-projection: how fast the items projection absorbs item
// changes (docs/benchmarks.md, "Items projection"). BENCH_ITEMS FIRST_SEEN
// changes (default 200,000) are appended to the engine's stream as
// ItemsChanged events of 1,000 changes, before the clock starts; then the
// items projection runs from the start of the log under a Redis prefix of
// its own until it has caught up, as a rebuild does. Printed as item
// changes/s and as a ratio to raw pipelined Redis writes (HSETs of a
// stored item's value as pre-encoded RESP on a socket, no MULTI) measured in the same run,
// and the Redis memory the read model takes per item.
// CPU ms per 1,000 changes of the projection (this process), the event store
// child and redis-server (shared with whatever else uses it) during the phase:
// steadier than the rate on a loaded machine.
// BENCH_CPU_PROF=1 writes a CPU profile of the projection phase (node --cpu-prof
// is the whole run; this one covers only the measured part).
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { Session } from 'node:inspector/promises';
import { EventStoreDBClient } from '@eventstore/db-client';
import { createClient } from 'redis';
import { createLogger } from '../src/core/logger';
import { RedisKeys } from '../src/core/redis/keys';
import type { RedisClient } from '../src/core/redis/connect';
import { ENGINE_STREAM } from '../src/engine/events';
import { startItemsProjection } from '../projections/items/projection';
import { itemKeys } from '../src/items/keys';
import { encodeStoredItem } from '../src/items/stored-item';
import { startServer } from './support/eventstore-child';
import { positiveEnv } from './support/env';
import { seededItemsEvent } from './support/seed-items';
import { usedMemory } from './support/redis-memory';
import { progress, rate } from './support/stats';
import { cpuMeter, pidOf } from './support/cpu';

const ITEMS = positiveEnv('BENCH_ITEMS', 200_000);
const BATCH = 1000;
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
/** What the projection writes per new item: its hash field and its member in `all`, `time` and its facility, zone and job sets (in a few variadic commands per batch). */
const WRITES_PER_NEW_ITEM = 6;

/**
 * Raw pipelined Redis writes/s: HSETs of a stored item's value written as
 * pre-encoded RESP on a plain socket, BATCH in flight, no MULTI; what Redis
 * itself does, without any client library's cost.
 */
async function rawPipelined(url: string, key: string, ops: number): Promise<number> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port || 6379) });
  await once(socket, 'connect');
  const value = encodeStoredItem({ item: { epc: 'E2300000000000000000000000', tagId: '', jobId: 'bench', xLocation: null, yLocation: null, zLocation: null, zone: 'Z0', floor: null, facility: 'DEFAULT', presenceConfidence: 'HIGH', lastModifiedTime: new Date().toISOString() }, ms: Date.now(), at: '00000000000000000000:000000' });
  const resp = (...args: string[]): string => `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;
  let replies = 0;
  let waiting: (() => void) | undefined;
  let want = 0;
  socket.on('data', (chunk: Buffer) => {
    // Every reply to HSET is one integer line.
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) replies++;
    if (replies >= want) waiting?.();
  });
  const t0 = performance.now();
  for (let done = 0; done < ops; done += BATCH) {
    const n = Math.min(BATCH, ops - done);
    const payload = Array.from({ length: n }, (_, i) => resp('HSET', key, `f${done + i}`, value)).join('');
    want = done + n;
    const arrived = new Promise<void>((r) => (waiting = r));
    socket.write(payload);
    if (replies < want) await arrived;
  }
  const ms = performance.now() - t0;
  socket.end(resp('UNLINK', key));
  await once(socket, 'close');
  return rate(ops, ms);
}

async function main(): Promise<void> {
  const server = await startServer();
  const client = EventStoreDBClient.connectionString(server.conn);
  const redis = createClient({ url: REDIS_URL }) as RedisClient;
  await redis.connect();
  const keys = new RedisKeys(`bench-itemsproj-${crypto.randomUUID()}:`);
  try {
    progress(`appending ${ITEMS} item changes`);
    const now = Date.now();
    for (let first = 0; first < ITEMS; first += BATCH) {
      const n = Math.min(BATCH, ITEMS - first);
      await client.appendToStream(ENGINE_STREAM, seededItemsEvent({ first, n, total: ITEMS, now, jobId: 'bench', inputPosition: '0' }));
    }
    progress('raw pipelined Redis writes');
    const rawBefore = await rawPipelined(REDIS_URL, `${keys.base}raw`, ITEMS);

    progress('items projection from the start of the log');
    const session = process.env['BENCH_CPU_PROF'] ? new Session() : undefined;
    if (session) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    }
    const memoryBefore = await usedMemory(redis);
    const cpu = cpuMeter({ projection: process.pid, eventStore: server.pid, redis: pidOf('redis-server') }).start();
    const t0 = performance.now();
    const sub = startItemsProjection({ client, redis, keys, logger: createLogger('bench') });
    await sub.caughtUp;
    const ms = performance.now() - t0;
    const cpuMs = cpu();
    await sub.stop();
    if (session) {
      const { profile } = await session.post('Profiler.stop');
      const file = `items-projection-${Date.now()}.cpuprofile`;
      writeFileSync(file, JSON.stringify(profile));
      progress(`CPU profile of the projection phase in ${file}`);
    }
    const stored = await redis.zCard(itemKeys(keys).all);
    // Shared with whatever else uses this Redis meanwhile: a figure for a quiet Redis.
    const redisBytesPerItem = Math.round((await usedMemory(redis) - memoryBefore) / ITEMS);
    if (stored !== ITEMS) throw new Error(`projected ${stored} items, expected ${ITEMS}`);
    const rawAfter = await rawPipelined(REDIS_URL, `${keys.base}raw`, ITEMS);
    const raw = Math.round((rawBefore + rawAfter) / 2);
    const changesPerSec = rate(ITEMS, ms);
    const figures = {
      items: ITEMS, projectionMs: Math.round(ms), changesPerSec, memberWritesPerSec: changesPerSec * WRITES_PER_NEW_ITEM,
      rawPipelinedOpsPerSec: raw, rawBefore, rawAfter,
      changesToRaw: +(changesPerSec / raw).toFixed(3), writesToRaw: +((changesPerSec * WRITES_PER_NEW_ITEM) / raw).toFixed(3),
      cpuMsPer1000Changes: Object.fromEntries(Object.entries(cpuMs).map(([name, used]) => [name, +((used * 1000) / ITEMS).toFixed(2)])),
      redisBytesPerItem,
      cpus: cpus().length, loadAverage: loadavg().map((l) => +l.toFixed(2)),
    };
    console.log(`items projection: ${ITEMS} item changes in ${figures.projectionMs} ms = ${changesPerSec} changes/s (${figures.memberWritesPerSec} member writes/s); raw pipelined Redis ${raw} ops/s; changes/raw ${figures.changesToRaw}, writes/raw ${figures.writesToRaw}; CPU ms per 1000 changes ${JSON.stringify(figures.cpuMsPer1000Changes)}; Redis memory ${redisBytesPerItem} bytes per item; load average ${figures.loadAverage.join(' ')}`);
    console.log(JSON.stringify(figures));
  } finally {
    for await (const found of redis.scanIterator({ MATCH: `${keys.base}*`, COUNT: 1000 })) if (found.length) await redis.unlink(found);
    await redis.quit();
    await client.dispose();
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${String(err)}\n`);
    process.exit(1);
  },
);
