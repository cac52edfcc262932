// Read-your-writes: after a command, wait (bounded) until the read model has
// applied the appended position, so a show right after a create sees it.
import type { Position } from '@eventstore/db-client';
import type { CheckpointStore, RunningSubscription } from '../subscriptions';
import { comparePositions } from '../subscriptions';
import type { Logger } from '../logger';
import { Backoff, sleep } from '../retry';

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
        await sleep(20);
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
      const poll = new Backoff({ initialMs: 2, maxMs: 50 });
      while (Date.now() < deadline) {
        const at = await store.load(name);
        if (at && comparePositions(at, position) >= 0) return;
        await sleep(poll.next());
      }
      logger.warn('read model did not catch up in time', { projection: name, position: position.commit, timeoutMs });
    },
  };
}
