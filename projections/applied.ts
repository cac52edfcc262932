// Per-entity "last applied log position" for read models whose updates are
// not idempotent by themselves (counters, folds that append). An event at or
// before the position recorded for its entity was applied already and is
// skipped, so replaying events (a rebuild switching over while the live
// projection is behind it, or a lost checkpoint) changes nothing. Events of
// one entity are applied in log order, so one position per entity suffices.
import type { Position } from '@eventstore/db-client';
import type { RedisClient } from '../src/core/redis/connect';
import { comparePositions, parsePosition, positionToString } from '../src/core/subscriptions';

export class AppliedPositions {
  /** Fields that applied an event of this batch, with their new position. */
  private readonly applied = new Map<string, Position>();

  private constructor(private readonly at: Map<string, Position>) {}

  /** Loads the positions of `fields` from the hash `key`. */
  static async load(redis: RedisClient, key: string, fields: readonly string[]): Promise<AppliedPositions> {
    const at = new Map<string, Position>();
    if (fields.length > 0) {
      const raws = await redis.hmGet(key, [...fields]);
      fields.forEach((f, i) => {
        const [commit, prepare] = raws[i]?.split('/') ?? [];
        const p = parsePosition(commit, prepare);
        if (p) at.set(f, p);
      });
    }
    return new AppliedPositions(at);
  }

  /** True (and remembered) when `position` is past what `field` has applied; false for a replayed event. */
  apply(field: string, position: Position | undefined): boolean {
    if (position === undefined) throw new Error(`event of ${field} has no $all position`);
    const last = this.at.get(field);
    if (last !== undefined && comparePositions(position, last) <= 0) return false;
    this.at.set(field, position);
    this.applied.set(field, position);
    return true;
  }

  /** Whether `field` applied an event of this batch. */
  changed(field: string): boolean {
    return this.applied.has(field);
  }

  /** Writes the positions of this batch into the hash `key`, in the MULTI of the changes. */
  saveInTransaction(tx: { hSet(key: string, fields: Record<string, string>): unknown }, key: string): void {
    if (this.applied.size > 0) tx.hSet(key, Object.fromEntries([...this.applied].map(([f, p]) => [f, positionToString(p)])));
  }
}
