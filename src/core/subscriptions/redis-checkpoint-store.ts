import type { Position } from '@eventstore/db-client';
import type { CheckpointStore } from './checkpoint-store';
import { parsePosition } from './position';

/**
 * The slice of a node-redis v6 client (or MULTI) this store needs; typed
 * structurally so any client flavour (modules, RESP3, cluster) fits.
 */
export interface CheckpointRedis {
  hmGet(key: string, fields: string[]): Promise<ReadonlyArray<string | null>>;
  hSet(key: string, value: Record<string, string>): Promise<unknown>;
}
export interface CheckpointRedisTransaction {
  hSet(key: string, value: Record<string, string>): unknown;
}

export const DEFAULT_CHECKPOINT_PREFIX = 'tagtrail:v1:checkpoint:';

/**
 * One Redis hash per subscription with `commit` and `prepare` as decimal
 * strings (positions are 64-bit and must not pass through JS numbers).
 */
export class RedisCheckpointStore implements CheckpointStore {
  constructor(
    private readonly redis: CheckpointRedis,
    private readonly prefix = DEFAULT_CHECKPOINT_PREFIX,
  ) {}

  key(name: string): string {
    return `${this.prefix}${name}`;
  }

  async load(name: string): Promise<Position | undefined> {
    const [commit, prepare] = await this.redis.hmGet(this.key(name), ['commit', 'prepare']);
    if (commit == null && prepare == null) return undefined;
    const position = parsePosition(commit, prepare);
    // A checkpoint we cannot read must not silently restart a read model from
    // the beginning (it would double-apply every event).
    if (!position) throw new Error(`corrupt checkpoint at ${this.key(name)}: ${String(commit)}/${String(prepare)}`);
    return position;
  }

  async save(name: string, position: Position): Promise<void> {
    await this.redis.hSet(this.key(name), encodeCheckpoint(position));
  }

  /**
   * Queues the checkpoint write into the caller's MULTI, so a projection
   * commits its read-model change and its position atomically.
   */
  saveInTransaction(tx: CheckpointRedisTransaction, name: string, position: Position): void {
    tx.hSet(this.key(name), encodeCheckpoint(position));
  }
}

export const encodeCheckpoint = (position: Position): Record<string, string> => ({
  commit: position.commit.toString(),
  prepare: position.prepare.toString(),
});
