import type { Position } from '@eventstore/db-client';
import { isAfter } from './position';

interface Waiter {
  target: Position;
  done: (reached: boolean) => void;
}

/**
 * Lets a caller wait until a subscription has handled a given `$all`
 * position, e.g. an HTTP command waiting for its own write to reach the
 * read model before answering.
 */
export class PositionWaiters {
  private waiters = new Set<Waiter>();

  wait(target: Position, current: Position | undefined, timeoutMs: number): Promise<boolean> {
    if (current !== undefined && !isAfter(target, current)) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const waiter: Waiter = {
        target,
        done: (reached) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(reached);
        },
      };
      const timer = setTimeout(() => waiter.done(false), timeoutMs);
      this.waiters.add(waiter);
    });
  }

  reached(position: Position): void {
    for (const waiter of [...this.waiters]) {
      if (!isAfter(waiter.target, position)) waiter.done(true);
    }
  }

  cancelAll(): void {
    for (const waiter of [...this.waiters]) waiter.done(false);
  }
}
