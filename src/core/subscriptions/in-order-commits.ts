/**
 * The batches a subscription handed to its handler whose writes may still be
 * unconfirmed (a handler that pipelines its writes returns before they are
 * acknowledged), settled in log order: each batch's `onCommitted` runs only
 * after its own write and every earlier one succeeded, so the position a
 * subscription reports never passes a write that could still fail. After the
 * first failure nothing queued later counts: the subscription resumes from
 * the last committed position.
 */
export class InOrderCommits {
  private tail: Promise<void> = Promise.resolve();
  private count = 0;
  private failure: { error: unknown } | undefined;
  private waiters: Array<() => void> = [];

  /** Batches not settled yet. */
  get pending(): number {
    return this.count;
  }

  /** The first failed write since the last `reset`, if any. */
  get failed(): { error: unknown } | undefined {
    return this.failure;
  }

  /** Runs `onCommitted` once `committed` (if any) and everything added before it succeeded. */
  add(committed: Promise<void> | undefined, onCommitted: () => void): void {
    if (committed === undefined && this.count === 0) {
      if (!this.failure) onCommitted();
      return;
    }
    committed?.catch(() => undefined); // observed below, in order
    this.count += 1;
    this.tail = this.tail
      .then(async () => {
        if (this.failure) return;
        try {
          await committed;
        } catch (error) {
          this.failure = { error };
          return;
        }
        onCommitted();
      })
      .finally(() => {
        this.count -= 1;
        this.wake();
      });
  }

  /** Resolves once fewer than `max` batches are pending, or one failed. */
  async room(max: number): Promise<void> {
    while (this.count >= max && !this.failure) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** Resolves once everything added so far has settled. */
  settled(): Promise<void> {
    return this.tail;
  }

  /** Forgets a failure (after everything settled, before resuming). */
  reset(): void {
    this.failure = undefined;
  }

  private wake(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w();
  }
}
