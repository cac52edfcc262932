// Read-your-writes: after a command, wait (bounded) until the read model has
// applied the appended position, so a show right after a create sees it.
import type { Position } from '@eventstore/db-client';
import type { CheckpointStore, RunningSubscription } from '../subscriptions';
import { comparePositions } from '../subscriptions';
import type { Logger } from '../logger';

export interface ProjectionWaiter {
  /** Resolves when the projection is at or past `position`, or after the bound (logged). */
  waitFor(position: Position | undefined): Promise<void>;
}

/**
 * The projection runs in this process: wait on it directly. `current` gives
 * the running subscription (another one once the read model was rebuilt;
 * none while it restarts, then the wait polls until the bound).
 */
export function localWaiter(current: () => RunningSubscription | undefined, timeoutMs: number, logger: Logger): ProjectionWaiter {
  return {
    async waitFor(position) {
      if (!position) return;
      const deadline = Date.now() + timeoutMs;
      let sub = current();
      while (sub === undefined && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
        sub = current();
      }
      if (!(await sub?.waitForPosition(position, Math.max(0, deadline - Date.now())))) {
        logger.warn('read model did not catch up in time', { position: position.commit, timeoutMs });
      }
    },
  };
}

/** The projection runs elsewhere: poll its checkpoint. */
export function checkpointWaiter(store: CheckpointStore, name: string, timeoutMs: number, logger: Logger): ProjectionWaiter {
  return {
    async waitFor(position) {
      if (!position) return;
      const deadline = Date.now() + timeoutMs;
      for (let delay = 2; Date.now() < deadline; delay = Math.min(delay * 2, 50)) {
        const at = await store.load(name);
        if (at && comparePositions(at, position) >= 0) return;
        await new Promise((r) => setTimeout(r, delay));
      }
      logger.warn('read model did not catch up in time', { projection: name, position: position.commit, timeoutMs });
    },
  };
}
