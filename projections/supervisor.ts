// Runs every read model of the projections role and keeps it truthful when
// Redis loses its data (a restart without persistence, a flush): nobody has
// to notice and run `npm run rebuild`.
//
// - At start it reads the generation marker (`<prefix>v1:generation`, see
//   src/core/redis/readiness.ts). None: Redis holds no read models of this
//   service (first start, or it lost its data), so every read model's keys
//   and checkpoint are dropped and a new generation is written with every
//   read model `rebuilding`. Otherwise a read model is kept when its state
//   belongs to this generation (and its checkpoint is not past the end of
//   the log, src/core/subscriptions/log-reset.ts), else it is rebuilt alone.
// - Each read model is then projected from its checkpoint (nothing for a
//   rebuilt one: the start of the log). Once caught up it is marked `ready`.
//   While rebuilding, progress goes to the log and to its state (`/healthz`).
// - Every `checkEveryMs`, and whenever the Redis connection comes back, the
//   marker is read again. Gone or changed: the projections' positions in
//   memory no longer describe Redis, so all of them are stopped and the
//   read models rebuilt as at a first start. Readers never serve the lost
//   data meanwhile: the gate refuses reads as soon as the marker is gone.
import { randomUUID } from 'node:crypto';
import { BACKWARDS, END, type EventStoreDBClient, type Position } from '@eventstore/db-client';
import type { RedisClient } from '../src/core/redis/connect';
import type { RedisKeys } from '../src/core/redis/keys';
import type { Logger } from '../src/core/logger';
import { parseStateDoc, type ReadModelStateDoc } from '../src/core/redis/readiness';
import { positionToString, RedisCheckpointStore, type RunningSubscription } from '../src/core/subscriptions';
import { retry, type BackoffPolicy } from '../src/core/retry';
import { resetIfLogWasReplaced } from '../src/core/subscriptions/log-reset';
import { globEscape, keyPatterns, type RebuildableReadModel } from './read-model';

export interface ReadModelSupervisor {
  /** Resolves once `name` is ready and its projection has caught up (now, or after the rebuild under way). */
  ready(name: string): Promise<void>;
  /** The running projection of `name`; another one after a rebuild. */
  subscription(name: string): RunningSubscription | undefined;
  stop(): Promise<void>;
}

export interface SuperviseOptions {
  readonly client: EventStoreDBClient;
  readonly redis: RedisClient;
  readonly keys: RedisKeys;
  readonly logger: Logger;
  readonly models: readonly RebuildableReadModel[];
  /** How often the generation marker is checked (default 1 s). */
  readonly checkEveryMs?: number;
  /** How often a rebuilding read model logs and records its progress (default 5 s). */
  readonly progressEveryMs?: number;
  /**
   * Where a read model rebuilt from nothing starts (undefined: the start of
   * the log): after the last factory reset, whose deleted streams keep their
   * events in $all.
   */
  readonly rebuildFrom?: () => Promise<Position | undefined>;
}

/** Marking a caught-up read model ready while Redis is away: every half second, as long as it takes. */
const MARK_READY_RETRY: BackoffPolicy = { initialMs: 500, maxMs: 500, factor: 1 };

interface Running {
  readonly model: RebuildableReadModel;
  /** The generation it was started in. */
  readonly generation: string;
  readonly sub: RunningSubscription;
  readonly startedAt: number;
  rebuilding: boolean;
  events: number;
}

interface Gate {
  promise: Promise<void>;
  open(): void;
  opened: boolean;
}

function newGate(): Gate {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  const gate: Gate = { promise, opened: false, open: () => ((gate.opened = true), open()) };
  return gate;
}

async function logHead(client: EventStoreDBClient): Promise<Position | undefined> {
  let head: Position | undefined;
  // Read to the end: leaving a for-await early leaves the call open.
  for await (const e of client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 })) head = e.event?.position ?? head;
  return head;
}

const percentOf = (at: Position | undefined, head: Position | undefined): number =>
  head === undefined || head.commit === 0n ? 100 : at === undefined ? 0 : Math.min(100, Number((at.commit * 10000n) / head.commit) / 100);

export function superviseReadModels(opts: SuperviseOptions): ReadModelSupervisor {
  const supervisor = new Supervisor(opts);
  supervisor.start();
  return {
    ready: (name) => supervisor.ready(name),
    subscription: (name) => supervisor.subscription(name),
    stop: () => supervisor.stop(),
  };
}

/** The state of a read model in generation `gen` (the one its projection was started in, not whatever is current by now). */
const stateDoc = (gen: string, state: ReadModelStateDoc['state'], extra: Partial<ReadModelStateDoc> = {}): string =>
  JSON.stringify({ state, generation: gen, since: new Date().toISOString(), ...extra } satisfies ReadModelStateDoc);

/** Which read models a start keeps, rebuilds from nothing, or lets carry on rebuilding from their checkpoint. */
interface StartPlan {
  readonly generation: string;
  /** Read models marked `rebuilding`. */
  readonly rebuild: Set<string>;
  /** Read models dropped here, to be projected from nothing (not those carrying on from a checkpoint). */
  readonly rebuilt: Set<string>;
}

class Supervisor {
  private readonly log: Logger;
  private readonly names: string[];
  private readonly checkpoints: RedisCheckpointStore;
  private readonly running = new Map<string, Running>();
  private readonly gates: Map<string, Gate>;
  private generation: string | undefined;
  private stopping = false;
  private busy: Promise<void> | undefined;
  private checker: NodeJS.Timeout | undefined;
  private reporter: NodeJS.Timeout | undefined;
  /** One look at the marker; serialised, so a slow rebuild start is never overlapped. */
  private readonly check = (): void => {
    if (this.stopping || this.busy) return;
    this.busy = (async () => {
      try {
        const found = await this.opts.redis.get(this.opts.keys.generation);
        if (found !== this.generation || this.running.size === 0) await this.recover(found);
      } catch (err) {
        // Redis away: the next check (or its reconnection) tries again.
        this.log.debug('generation check failed', { err: err instanceof Error ? err.message : String(err) });
      } finally {
        this.busy = undefined;
      }
    })();
  };

  constructor(private readonly opts: SuperviseOptions) {
    this.log = opts.logger.child('read-models');
    this.names = opts.models.map((m) => m.name);
    this.checkpoints = new RedisCheckpointStore(opts.redis, opts.keys.checkpointPrefix);
    this.gates = new Map(this.names.map((n) => [n, newGate()]));
  }

  start(): void {
    this.busy = this.establish()
      .catch((err: unknown) => this.log.error('read models did not start; retrying', { err }))
      .finally(() => (this.busy = undefined));
    this.checker = setInterval(this.check, this.opts.checkEveryMs ?? 1000);
    this.reporter = setInterval(() => void this.progress(), this.opts.progressEveryMs ?? 5000);
    this.checker.unref();
    this.reporter.unref();
    this.opts.redis.on('ready', this.check);
  }

  ready(name: string): Promise<void> {
    const gate = this.gates.get(name);
    if (!gate) return Promise.reject(new Error(`no read model ${JSON.stringify(name)}`));
    // Only opened gates are replaced by a rebuild, so a pending one stays current.
    return gate.promise;
  }

  subscription(name: string): RunningSubscription | undefined {
    return this.running.get(name)?.sub;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.checker);
    clearInterval(this.reporter);
    this.opts.redis.off('ready', this.check);
    await this.busy;
    await this.stopAll();
  }

  private async drop(model: RebuildableReadModel): Promise<void> {
    const { redis, keys } = this.opts;
    for (const pattern of [...keyPatterns(model, keys), globEscape(this.checkpoints.key(model.projection))]) {
      for await (const found of redis.scanIterator({ MATCH: pattern, COUNT: 1000 })) if (found.length) await redis.unlink(found);
    }
  }

  /** Marks `r` ready once the marker still names our generation; retried while Redis is away, until `r` is replaced. */
  private async markReady(r: Running): Promise<void> {
    const { redis, keys } = this.opts;
    // No limit and no abort: it ends only when an attempt returns, once `r`
    // is marked or replaced (stop, recover), so it never rejects unobserved.
    await retry(async () => {
      if (this.stopping || this.running.get(r.model.name) !== r) return;
      if ((await redis.get(keys.generation)) !== r.generation) return; // lost again: the check rebuilds
      // No longer rebuilding before the write is sent, in the same turn: a
      // progress report that read the log head meanwhile checks this right
      // before sending its `rebuilding`, so that one cannot land after
      // `ready` (one connection keeps the order) and hold the model back.
      r.rebuilding = false;
      // Should Redis lose its data right here, this state names a generation
      // that no marker will ever name again: it makes nothing servable.
      await redis.hSet(keys.readModelStates, r.model.name, stateDoc(r.generation, 'ready')).catch((err: unknown) => {
        r.rebuilding = true;
        throw err;
      });
      this.log.info('read model rebuilt; serving it', {
        readModel: r.model.name, events: r.events, position: positionToString(r.sub.position), seconds: Math.round((Date.now() - r.startedAt) / 100) / 10,
      });
    }, {
      backoff: MARK_READY_RETRY,
      onRetry: (err) => this.log.warn('could not mark the read model ready; retrying', { readModel: r.model.name, err: err instanceof Error ? err.message : String(err) }),
    });
  }

  private startModel(model: RebuildableReadModel, rebuilding: boolean, gen: string): void {
    const { client, redis, keys } = this.opts;
    const r: Running = {
      model,
      generation: gen,
      rebuilding,
      events: 0,
      startedAt: Date.now(),
      sub: model.start({ client, redis, keys, logger: this.log, onApplied: (n) => (r.events += n) }),
    };
    this.running.set(model.name, r);
    r.sub.caughtUp.then(async () => {
      if (r.rebuilding) await this.markReady(r);
      if (!r.rebuilding && this.running.get(model.name) === r) this.gates.get(model.name)?.open();
    }, (err: unknown) => this.log.error('read model never caught up', { readModel: model.name, err }));
  }

  /** Reads the marker and (re)starts every read model accordingly (see the top of this file). */
  private async establish(): Promise<void> {
    const { redis, keys, models } = this.opts;
    const found = await redis.get(keys.generation);
    const plan = found === null ? await this.planFromNothing() : await this.planInGeneration(found);
    const { generation, rebuild, rebuilt } = plan;
    const floor = rebuilt.size > 0 ? await this.opts.rebuildFrom?.() : undefined;
    const tx = redis.multi().set(keys.generation, generation);
    for (const n of rebuild) tx.hSet(keys.readModelStates, n, stateDoc(generation, 'rebuilding', { events: 0 }));
    for (const m of models) if (floor !== undefined && rebuilt.has(m.name)) this.checkpoints.saveInTransaction(tx, m.projection, floor);
    await tx.exec();
    for (const m of models) this.startModel(m, rebuild.has(m.name), generation);
  }

  /** No marker: every read model is dropped and rebuilt in a new generation. */
  private async planFromNothing(): Promise<StartPlan> {
    this.log.warn('Redis holds no read models of this service (first start, or Redis lost its data): rebuilding every read model from the event log', { readModels: this.names });
    for (const m of this.opts.models) await this.drop(m);
    this.generation = randomUUID();
    return { generation: this.generation, rebuild: new Set(this.names), rebuilt: new Set(this.names) };
  }

  /** Marker `found`: each read model is kept, carries on rebuilding, or is rebuilt alone. */
  private async planInGeneration(found: string): Promise<StartPlan> {
    const { client, redis, keys, models } = this.opts;
    this.generation = found;
    const plan: StartPlan = { generation: found, rebuild: new Set(), rebuilt: new Set() };
    const docs = await redis.hmGet(keys.readModelStates, this.names);
    for (const [i, m] of models.entries()) {
      const doc = parseStateDoc(docs[i]);
      const replaced = await resetIfLogWasReplaced({
        client, redis, keys, projection: m.projection, keyPatterns: [...keyPatterns(m, keys), ...(m.alsoReset?.(keys) ?? []).map(globEscape)], logger: this.log,
      });
      if (replaced || doc?.generation !== found) {
        if (!replaced) {
          this.log.warn('read model not built in this Redis generation; rebuilding it from the event log', { readModel: m.name });
          await this.drop(m);
        }
        plan.rebuild.add(m.name);
        plan.rebuilt.add(m.name);
      } else if (doc.state === 'rebuilding') plan.rebuild.add(m.name); // carries on from its checkpoint
    }
    return plan;
  }

  private async stopAll(): Promise<void> {
    const all = [...this.running.values()];
    this.running.clear();
    // A projection stopping saves its checkpoint; with Redis away that fails,
    // and it does not matter: everything is dropped before starting again.
    await Promise.all(all.map((r) => r.sub.stop().catch(() => undefined)));
  }

  private async recover(found: string | null): Promise<void> {
    this.log.warn(
      found === null
        ? 'Redis lost the read models (the generation marker is gone): rebuilding every read model from the event log'
        : 'the read models were rebuilt under another generation: restarting the projections on it',
      { readModels: this.names },
    );
    for (const n of this.names) if (this.gates.get(n)?.opened) this.gates.set(n, newGate());
    this.generation = undefined;
    await this.stopAll();
    await this.establish();
  }

  private async progress(): Promise<void> {
    const { client, redis, keys } = this.opts;
    const rebuilding = [...this.running.values()].filter((r) => r.rebuilding);
    if (rebuilding.length === 0) return;
    const head = await logHead(client).catch(() => undefined);
    for (const r of rebuilding) {
      // Marked ready (or replaced) while the log head was read: its `rebuilding` must not follow the `ready`.
      if (!r.rebuilding || this.running.get(r.model.name) !== r) continue;
      const position = r.sub.position;
      const fields = { readModel: r.model.name, events: r.events, position: positionToString(position), logHead: positionToString(head), percent: percentOf(position, head) };
      this.log.info('read model rebuilding', fields);
      await redis
        .hSet(keys.readModelStates, r.model.name, stateDoc(r.generation, 'rebuilding', { events: r.events, position: fields.position, since: new Date(r.startedAt).toISOString() }))
        .catch(() => undefined);
    }
  }
}
