// The committed head of the log and a way to wait for it to move. Live
// subscriptions wait here instead of receiving pushed events, so a slow
// subscriber never makes the server buffer events for it.
export class HeadWatcher {
  private waiters = new Set<() => void>();

  constructor(public committed: bigint) {}

  advance(position: bigint): void {
    if (position <= this.committed) return;
    this.committed = position;
    const ws = this.waiters;
    this.waiters = new Set();
    for (const w of ws) w();
  }

  /** Resolves once the head is past `position`, or when `signal` aborts. */
  waitBeyond(position: bigint, signal?: AbortSignal): Promise<void> {
    if (this.committed > position || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        signal?.removeEventListener('abort', done);
        this.waiters.delete(done);
        resolve();
      };
      this.waiters.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}
