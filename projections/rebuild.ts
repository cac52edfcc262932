// Rebuilds a read model from the start of the event log beside the live one,
// then switches over (docs/operations.md, "Rebuilding a read model").
//
// 1. The model's projection runs under a namespace of its own,
//    `<base>rebuild-<model>-<run>:` (same layout, its own checkpoint), from the
//    start of `$all`, logging progress.
// 2. Once it has caught up it is stopped, and one WATCHed MULTI on a dedicated
//    connection UNLINKs the live keys, RENAMEs every rebuilt key onto its live
//    name and sets the live checkpoint. The live projection writes its
//    checkpoint in every transaction, so the WATCH on it aborts the switch if
//    the live one wrote in between (then the switch is retried, after catching
//    up again if the live checkpoint passed what the rebuild covers).
// Readers keep reading the live key names, so they see the old model until
// the EXEC and the rebuilt one after it; nothing needs a restart.
// 3. The WATCH covers the generation marker too (src/core/redis/readiness.ts):
//    if Redis lost its data during the rebuild, the rebuilt keys may have
//    gone with it, so nothing is switched (the service rebuilds every read
//    model by itself then). The switch marks the read model ready in the
//    generation it was built in.
// The read models are declared in projections/read-model.ts terms; the list
// is src/app/read-models.ts.
import { BACKWARDS, END, type EventStoreDBClient, type Position } from '@eventstore/db-client';
import { WatchError } from 'redis';
import type { RedisClient } from '../src/core/redis/connect';
import { RedisKeys } from '../src/core/redis/keys';
import type { Logger } from '../src/core/logger';
import { comparePositions, encodeCheckpoint, positionToString, RedisCheckpointStore, type RunningSubscription } from '../src/core/subscriptions';
import { globEscape, type RebuildableReadModel } from './read-model';
import type { ReadModelStateDoc } from '../src/core/redis/readiness';

export type { RebuildableReadModel } from './read-model';

export interface RebuildResult {
  readonly readModel: string;
  readonly events: number;
  readonly position: string;
  readonly keysSwitched: number;
  readonly keysRemoved: number;
  readonly attempts: number;
  /** Seconds from the start to the switch. */
  readonly seconds: number;
  /**
   * Seconds the projection took to catch up (the last attempt's), which the
   * rates are over: the switch may wait for the live projection after it.
   */
  readonly catchUpSeconds: number;
  readonly eventsPerSecond: number;
  /** Item changes applied (items read model only) and their rate. */
  readonly changes?: number;
  readonly changesPerSecond?: number;
}

async function logHead(client: EventStoreDBClient): Promise<Position | undefined> {
  let head: Position | undefined;
  // Read to the end: leaving a for-await early leaves the call open.
  for await (const e of client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 })) head = e.event?.position ?? head;
  return head;
}

/** How long the rebuild took, and its rates while catching up. */
function rates(events: number, changes: number, totalMs: number, catchUpMs: number): Pick<RebuildResult, 'seconds' | 'catchUpSeconds' | 'eventsPerSecond' | 'changes' | 'changesPerSecond'> {
  const seconds = Math.max(1, catchUpMs) / 1000;
  return {
    seconds: +(totalMs / 1000).toFixed(2),
    catchUpSeconds: +seconds.toFixed(2),
    eventsPerSecond: Math.round(events / seconds),
    ...(changes === 0 ? {} : { changes, changesPerSecond: Math.round(changes / seconds) }),
  };
}

async function scanPrefixes(redis: RedisClient, prefixes: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  for (const prefix of prefixes) {
    for await (const keys of redis.scanIterator({ MATCH: `${globEscape(prefix)}*`, COUNT: 1000 })) for (const k of keys) found.add(k);
  }
  return [...found];
}

export async function rebuildReadModel(opts: {
  model: RebuildableReadModel;
  client: EventStoreDBClient;
  redis: RedisClient;
  keys: RedisKeys;
  logger: Logger;
  /** Distinguishes the side-by-side namespace (default: the start time). */
  runId?: string;
  progressEveryMs?: number;
  maxAttempts?: number;
  /** How long the switch waits for a live projection behind the rebuild (default 5 s). */
  liveCatchUpMs?: number;
  /** Where the rebuild starts (default: the start of the log); after the last factory reset. */
  from?: Position;
}): Promise<RebuildResult> {
  const { model, client, redis, keys } = opts;
  const log = opts.logger.child('rebuild', { readModel: model.name });
  const runId = opts.runId ?? new Date().toISOString().replace(/[-:.]/g, '');
  const side = new RedisKeys(`${keys.base}rebuild-${model.name}-${runId}:`);
  const liveStore = new RedisCheckpointStore(redis, keys.checkpointPrefix);
  const sideStore = new RedisCheckpointStore(redis, side.checkpointPrefix);
  const liveCheckpointKey = liveStore.key(model.projection);
  const maxAttempts = opts.maxAttempts ?? 20;

  let events = 0;
  let changes = 0;
  const started = Date.now();
  let caughtUpAt: number | undefined;
  let sub: RunningSubscription | undefined;
  let head = await logHead(client);
  let lastTick = { at: Date.now(), events: 0, changes: 0 };
  const tick = (msg: string): void => {
    const now = Date.now();
    const position = sub?.position;
    const elapsed = Math.max(1, now - lastTick.at);
    const perSecond = Math.round(((events - lastTick.events) * 1000) / elapsed);
    const changesPerSecond = changes === 0 ? {} : { changes, changesPerSecond: Math.round(((changes - lastTick.changes) * 1000) / elapsed) };
    lastTick = { at: now, events, changes };
    const percent =
      head === undefined || head.commit === 0n ? 100
      : position === undefined ? 0
      : Math.min(100, Number((position.commit * 10000n) / head.commit) / 100);
    log.info(msg, { events, eventsPerSecond: perSecond, ...changesPerSecond, position: positionToString(position), logHead: positionToString(head), percent });
  };
  const generation = await redis.get(keys.generation);
  if (generation === null) log.warn('Redis holds no generation marker (it lost its data, or the service never ran on it): the service rebuilds every read model itself; this rebuild is switched in but not marked ready');
  const timer = setInterval(() => tick('rebuild progress'), opts.progressEveryMs ?? 2000);
  timer.unref();
  const conn = redis.duplicate() as RedisClient;
  await conn.connect();
  if (opts.from !== undefined) await sideStore.save(model.projection, opts.from);
  log.info('rebuild started', { namespace: side.base, from: positionToString(opts.from), logHead: positionToString(head) });
  try {
    for (let attempt = 1; ; attempt++) {
      if (attempt > maxAttempts) throw new Error(`could not switch ${model.name} over in ${maxAttempts} attempts (the live projection kept writing)`);
      // Everything that matches the projection's filter and is stored now is
      // handled once `caughtUp` resolves.
      head = await logHead(client);
      const covered = head;
      sub = model.start({ client, redis, keys: side, logger: log, onApplied: (n, c) => {
        events += n;
        changes += c ?? 0;
      } });
      await sub.caughtUp;
      await sub.stop();
      caughtUpAt = Date.now();
      tick('rebuild caught up');
      const rebuilt = await sideStore.load(model.projection);
      const sideKeys = (await scanPrefixes(redis, model.keyPrefixes(side))).filter((k) => k !== sideStore.key(model.projection));
      const waitForLiveUntil = Date.now() + (opts.liveCatchUpMs ?? 5000);
      for (;;) {
        await conn.watch([liveCheckpointKey, keys.generation]);
        if ((await conn.get(keys.generation)) !== generation) {
          await conn.unwatch();
          throw new Error('Redis lost its data during the rebuild (its generation marker changed); the service rebuilds every read model from the event log by itself');
        }
        const live = await new RedisCheckpointStore(conn, keys.checkpointPrefix).load(model.projection);
        if (live !== undefined && (covered === undefined || comparePositions(live, covered) > 0)) {
          await conn.unwatch();
          log.info('live projection is ahead of the rebuild; catching up again', { live: positionToString(live) });
          break;
        }
        if (rebuilt !== undefined && (live === undefined || comparePositions(live, rebuilt) < 0) && Date.now() < waitForLiveUntil) {
          // Switching now would make the live projection re-apply what the
          // rebuild holds; harmless, but its readers would see older values
          // for a moment. Give it the time to get there.
          await conn.unwatch();
          await new Promise((r) => setTimeout(r, 20));
          continue;
        }
        const target = [rebuilt, live].reduce<Position | undefined>((a, b) => (b === undefined ? a : a === undefined || comparePositions(b, a) > 0 ? b : a), undefined);
        const liveKeys = await scanPrefixes(conn, model.keyPrefixes(keys));
        const tx = conn.multi();
        if (liveKeys.length > 0) tx.unlink(liveKeys);
        for (const k of sideKeys) tx.rename(k, keys.base + k.slice(side.base.length));
        if (target !== undefined) tx.hSet(liveCheckpointKey, encodeCheckpoint(target));
        if (generation !== null) {
          const state: ReadModelStateDoc = { state: 'ready', generation, since: new Date().toISOString() };
          tx.hSet(keys.readModelStates, model.name, JSON.stringify(state));
        }
        tx.del(sideStore.key(model.projection));
        try {
          await tx.exec();
        } catch (err) {
          if (!(err instanceof WatchError)) throw err;
          if (++attempt > maxAttempts) throw new Error(`could not switch ${model.name} over in ${maxAttempts} attempts (the live projection kept writing)`, { cause: err });
          continue;
        }
        const result: RebuildResult = {
          readModel: model.name,
          events,
          position: positionToString(target),
          keysSwitched: sideKeys.length,
          keysRemoved: liveKeys.length,
          attempts: attempt,
          ...rates(events, changes, Date.now() - started, (caughtUpAt ?? Date.now()) - started),
        };
        log.info('rebuild switched over', { ...result });
        return result;
      }
    }
  } catch (err) {
    log.error('rebuild failed; the live read model is unchanged', { err, namespace: side.base });
    await sub?.stop();
    const left = await scanPrefixes(redis, [side.base]).catch(() => []);
    if (left.length > 0) await redis.unlink(left).catch(() => undefined);
    throw err;
  } finally {
    clearInterval(timer);
    await conn.close();
  }
}
