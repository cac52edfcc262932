// A read model's writes, fenced on its checkpoint. Every MULTI of a
// projection commits only while the checkpoint in Redis is still the one this
// process last wrote (or loaded): WATCH the checkpoint, compare it, then
// MULTI/EXEC with the new checkpoint in it. So two projection processes on
// one namespace (a second `projections` role started by mistake, one paused
// and resumed) never interleave their writes: the second to write finds the
// checkpoint moved, writes nothing, and resumes from where the other got
// (the subscription reloads its position). A read-modify-write fold (jobs,
// health) therefore never works on a state another process changed under it.
//
// WATCH belongs to a connection, and an EXEC of any other MULTI on it would
// clear it: each projection has a connection of its own for its writes (and
// for the reads that must see them, items/write-pipeline.ts).
import type { Position } from '@eventstore/db-client';
import { WatchError } from 'redis';
import { closeRedis, type RedisClient } from '../src/core/redis/connect';
import type { Logger } from '../src/core/logger';
import { comparePositions, positionToString, RedisCheckpointStore, type CheckpointStore } from '../src/core/subscriptions';
import { RELOAD_CHECKPOINT } from '../src/core/subscriptions/run-subscription';

export type Multi = ReturnType<RedisClient['multi']>;

/** Another process wrote the read model since this one last did: nothing of this batch was written. */
export class ProjectionFenced extends Error {
  override readonly name = 'ProjectionFenced';
  /** Tells the subscription to start again from the checkpoint in Redis. */
  readonly [RELOAD_CHECKPOINT] = true;
  constructor(projection: string, expected: Position | undefined, found: Position | undefined) {
    super(`${projection}: checkpoint is at ${positionToString(found)}, this process last wrote ${positionToString(expected)}; another process writes this read model`);
  }
}

const samePosition = (a: Position | undefined, b: Position | undefined): boolean =>
  a === undefined || b === undefined ? a === b : comparePositions(a, b) === 0;

export class FencedWriter {
  /** The projection's own connection (a duplicate of the shared one, reconnecting like it): its MULTIs, and the reads that must come after them. */
  readonly redis: RedisClient;
  private expected: Position | undefined;
  private readonly checkpoints: RedisCheckpointStore;
  private readonly key: string;
  private readonly connected: Promise<unknown>;

  constructor(shared: RedisClient, checkpointPrefix: string, private readonly name: string, logger: Logger) {
    const own = shared.duplicate() as RedisClient;
    let down = false;
    own.on('error', (err: Error) => {
      if (!down) logger.warn('redis connection error (projection writes)', { projection: name, err: err.message });
      down = true;
    });
    own.on('ready', () => (down = false));
    this.connected = own.connect();
    // A failed connect surfaces in load(), the subscription's first step, which retries.
    this.connected.catch(() => undefined);
    this.redis = own;
    this.checkpoints = new RedisCheckpointStore(own, checkpointPrefix);
    this.key = this.checkpoints.key(name);
  }

  /** The checkpoint in Redis, from now on the one this process expects to find before each write. */
  async load(): Promise<Position | undefined> {
    await this.connected;
    this.expected = await this.checkpoints.load(this.name);
    return this.expected;
  }

  multi(): Multi {
    return this.redis.multi();
  }

  /**
   * Executes `tx` (with `position` as the new checkpoint, if given) only if
   * the checkpoint is still the one this process expects; else throws
   * ProjectionFenced and nothing of `tx` is written. `sending` is called
   * right before the MULTI is handed to the connection (a read sent after
   * it sees its writes).
   */
  async commit(tx: Multi, position?: Position, sending?: () => void): Promise<void> {
    // One round trip: the read goes on the same connection right behind the
    // WATCH, so Redis runs it after the WATCH took effect, as if awaited.
    const [, found] = await Promise.all([this.redis.watch(this.key), this.checkpoints.load(this.name)]);
    if (!samePosition(found, this.expected)) {
      await this.redis.unwatch();
      throw new ProjectionFenced(this.name, this.expected, found);
    }
    if (position !== undefined) this.checkpoints.saveInTransaction(tx, this.name, position);
    try {
      sending?.();
      await tx.exec();
    } catch (err) {
      // The checkpoint changed between the compare and the EXEC.
      if (err instanceof WatchError) throw new ProjectionFenced(this.name, this.expected, await this.checkpoints.load(this.name));
      throw err;
    }
    if (position !== undefined) this.expected = position;
  }

  /** The subscription's store: it loads what this writer expects, and saves positions without events (filter checkpoints) fenced too. */
  store(): CheckpointStore {
    return { load: () => this.load(), save: (_name, position) => this.commit(this.multi(), position) };
  }

  async close(): Promise<void> {
    await this.connected.catch(() => undefined);
    await closeRedis(this.redis).catch(() => undefined);
  }
}
