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

/** Counts what the side projection applied and logs its progress against the log's head. */
class RebuildProgress {
  events = 0;
  changes = 0;
  caughtUpAt: number | undefined;
  sub: RunningSubscription | undefined;
  private lastTick = { at: Date.now(), events: 0, changes: 0 };

  constructor(
    private readonly log: Logger,
    public head: Position | undefined,
  ) {}

  readonly onApplied = (n: number, c?: number): void => {
    this.events += n;
    this.changes += c ?? 0;
  };

  tick(msg: string): void {
    const { events, changes, head } = this;
    const now = Date.now();
    const position = this.sub?.position;
    const elapsed = Math.max(1, now - this.lastTick.at);
    const perSecond = Math.round(((events - this.lastTick.events) * 1000) / elapsed);
    const changesPerSecond = changes === 0 ? {} : { changes, changesPerSecond: Math.round(((changes - this.lastTick.changes) * 1000) / elapsed) };
    this.lastTick = { at: now, events, changes };
    const percent =
      head === undefined || head.commit === 0n ? 100
      : position === undefined ? 0
      : Math.min(100, Number((position.commit * 10000n) / head.commit) / 100);
    this.log.info(msg, { events, eventsPerSecond: perSecond, ...changesPerSecond, position: positionToString(position), logHead: positionToString(head), percent });
  }
}

/**
 * Counts the attempts to switch over: each catch-up after the live projection
 * passed the rebuild, and each switch whose WATCH aborted.
 */
class SwitchAttempts {
  n = 1;

  constructor(
    private readonly readModel: string,
    private readonly max: number,
  ) {}

  /** Throws once there were more attempts than allowed. */
  check(cause?: unknown): void {
    if (this.n <= this.max) return;
    const message = `could not switch ${this.readModel} over in ${this.max} attempts (the live projection kept writing)`;
    throw cause === undefined ? new Error(message) : new Error(message, { cause });
  }
}

/** What one rebuild run works with, from its start to its switch. */
interface RebuildRun {
  readonly model: RebuildableReadModel;
  readonly client: EventStoreDBClient;
  readonly redis: RedisClient;
  readonly keys: RedisKeys;
  /** The side-by-side namespace the rebuild writes under. */
  readonly side: RedisKeys;
  readonly sideStore: RedisCheckpointStore;
  readonly liveCheckpointKey: string;
  /** The generation marker at the start; the switch requires it unchanged. */
  readonly generation: string | null;
  /** The dedicated connection of the WATCHed switch. */
  readonly conn: RedisClient;
  readonly log: Logger;
  readonly liveCatchUpMs: number;
  readonly progress: RebuildProgress;
}

/** What a catch-up of the side projection left to switch in. */
interface CaughtUp {
  /** The log's head before the catch-up: everything up to it is handled. */
  readonly covered: Position | undefined;
  /** The side projection's checkpoint. */
  readonly rebuilt: Position | undefined;
  readonly sideKeys: readonly string[];
}

async function catchUp(run: RebuildRun): Promise<CaughtUp> {
  const { model, client, redis, side, sideStore, log, progress } = run;
  // Everything that matches the projection's filter and is stored now is
  // handled once `caughtUp` resolves.
  progress.head = await logHead(client);
  const covered = progress.head;
  const sub = model.start({ client, redis, keys: side, logger: log, onApplied: progress.onApplied });
  progress.sub = sub;
  await sub.caughtUp;
  await sub.stop();
  progress.caughtUpAt = Date.now();
  progress.tick('rebuild caught up');
  const rebuilt = await sideStore.load(model.projection);
  const sideKeys = (await scanPrefixes(redis, model.keyPrefixes(side))).filter((k) => k !== sideStore.key(model.projection));
  return { covered, rebuilt, sideKeys };
}

/**
 * WATCHes the live checkpoint and the generation marker and reads the live
 * checkpoint under that WATCH. Throws if Redis lost its data meanwhile.
 */
async function watchLive(run: RebuildRun): Promise<Position | undefined> {
  const { conn, keys, model } = run;
  await conn.watch([run.liveCheckpointKey, keys.generation]);
  if ((await conn.get(keys.generation)) !== run.generation) {
    await conn.unwatch();
    throw new Error('Redis lost its data during the rebuild (its generation marker changed); the service rebuilds every read model from the event log by itself');
  }
  return new RedisCheckpointStore(conn, keys.checkpointPrefix).load(model.projection);
}

const laterOf = (positions: readonly (Position | undefined)[]): Position | undefined =>
  positions.reduce<Position | undefined>((a, b) => (b === undefined ? a : a === undefined || comparePositions(b, a) > 0 ? b : a), undefined);

/**
 * The switch itself, one MULTI under the WATCH: the live keys go, the rebuilt
 * ones take their names, the live checkpoint moves to `target`. Rejects with
 * a WatchError if the live projection wrote meanwhile. Returns how many live
 * keys it removed.
 */
async function switchTransaction(run: RebuildRun, sideKeys: readonly string[], target: Position | undefined): Promise<number> {
  const { conn, keys, side, model, generation } = run;
  const liveKeys = await scanPrefixes(conn, model.keyPrefixes(keys));
  const tx = conn.multi();
  if (liveKeys.length > 0) tx.unlink(liveKeys);
  for (const k of sideKeys) tx.rename(k, keys.base + k.slice(side.base.length));
  if (target !== undefined) tx.hSet(run.liveCheckpointKey, encodeCheckpoint(target));
  if (generation !== null) {
    const state: ReadModelStateDoc = { state: 'ready', generation, since: new Date().toISOString() };
    tx.hSet(keys.readModelStates, model.name, JSON.stringify(state));
  }
  tx.del(run.sideStore.key(model.projection));
  await tx.exec();
  return liveKeys.length;
}

interface Switched {
  readonly target: Position | undefined;
  readonly keysRemoved: number;
}

/**
 * Switches what `caughtUp` rebuilt in, retrying when the WATCH aborts; gives
 * the live projection `liveCatchUpMs` to reach the rebuild first. Returns
 * undefined when the live projection passed what the rebuild covers: the
 * rebuild has to catch up again.
 */
async function switchOver(run: RebuildRun, caughtUp: CaughtUp, attempts: SwitchAttempts): Promise<Switched | undefined> {
  const { conn, log } = run;
  const { covered, rebuilt, sideKeys } = caughtUp;
  const waitForLiveUntil = Date.now() + run.liveCatchUpMs;
  for (;;) {
    const live = await watchLive(run);
    if (live !== undefined && (covered === undefined || comparePositions(live, covered) > 0)) {
      await conn.unwatch();
      log.info('live projection is ahead of the rebuild; catching up again', { live: positionToString(live) });
      return undefined;
    }
    if (rebuilt !== undefined && (live === undefined || comparePositions(live, rebuilt) < 0) && Date.now() < waitForLiveUntil) {
      // Switching now would make the live projection re-apply what the
      // rebuild holds; harmless, but its readers would see older values
      // for a moment. Give it the time to get there.
      await conn.unwatch();
      await new Promise((r) => setTimeout(r, 20));
      continue;
    }
    const target = laterOf([rebuilt, live]);
    try {
      return { target, keysRemoved: await switchTransaction(run, sideKeys, target) };
    } catch (err) {
      if (!(err instanceof WatchError)) throw err;
      attempts.n++;
      attempts.check(err);
    }
  }
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
  const { model, redis, keys } = opts;
  const log = opts.logger.child('rebuild', { readModel: model.name });
  const runId = opts.runId ?? new Date().toISOString().replace(/[-:.]/g, '');
  const side = new RedisKeys(`${keys.base}rebuild-${model.name}-${runId}:`);
  const sideStore = new RedisCheckpointStore(redis, side.checkpointPrefix);
  const started = Date.now();
  const progress = new RebuildProgress(log, await logHead(opts.client));
  const generation = await redis.get(keys.generation);
  if (generation === null) log.warn('Redis holds no generation marker (it lost its data, or the service never ran on it): the service rebuilds every read model itself; this rebuild is switched in but not marked ready');
  const timer = setInterval(() => progress.tick('rebuild progress'), opts.progressEveryMs ?? 2000);
  timer.unref();
  const conn = redis.duplicate() as RedisClient;
  await conn.connect();
  if (opts.from !== undefined) await sideStore.save(model.projection, opts.from);
  log.info('rebuild started', { namespace: side.base, from: positionToString(opts.from), logHead: positionToString(progress.head) });
  const liveCheckpointKey = new RedisCheckpointStore(redis, keys.checkpointPrefix).key(model.projection);
  const run: RebuildRun = { model, client: opts.client, redis, keys, side, sideStore, liveCheckpointKey, generation, conn, log, liveCatchUpMs: opts.liveCatchUpMs ?? 5000, progress };
  try {
    for (const attempts = new SwitchAttempts(model.name, opts.maxAttempts ?? 20); ; attempts.n++) {
      attempts.check();
      const caughtUp = await catchUp(run);
      const switched = await switchOver(run, caughtUp, attempts);
      if (switched === undefined) continue;
      const result: RebuildResult = {
        readModel: model.name,
        events: progress.events,
        position: positionToString(switched.target),
        keysSwitched: caughtUp.sideKeys.length,
        keysRemoved: switched.keysRemoved,
        attempts: attempts.n,
        ...rates(progress.events, progress.changes, Date.now() - started, (progress.caughtUpAt ?? Date.now()) - started),
      };
      log.info('rebuild switched over', { ...result });
      return result;
    }
  } catch (err) {
    log.error('rebuild failed; the live read model is unchanged', { err, namespace: side.base });
    await progress.sub?.stop();
    const left = await scanPrefixes(redis, [side.base]).catch(() => []);
    if (left.length > 0) await redis.unlink(left).catch(() => undefined);
    throw err;
  } finally {
    clearInterval(timer);
    await conn.close();
  }
}
