// The relay's list of configured queues, rebuilt from QueueConfigured events.
// Each queue remembers where in the log it was configured: it receives the
// events after that position only, so a replay after a restart gives every
// queue exactly the events it would have received live.
import type { QueueConfiguredData } from './events';
import type { QueueConfig } from './model';

interface Entry {
  readonly config: QueueConfig;
  /** $all commit position of its QueueConfigured. */
  readonly configuredAt: bigint;
}

export class QueueRegistry {
  private readonly byName = new Map<string, Entry>();

  /** Idempotent: the registry load and the live subscription may both see one event. */
  add(data: QueueConfiguredData, configuredAt: bigint): void {
    if (this.byName.has(data.queue)) return;
    this.byName.set(data.queue, { config: { kind: data.kind, queue: data.queue, deliveryMode: data.deliveryMode, filter: data.filter } as QueueConfig, configuredAt });
  }

  get size(): number {
    return this.byName.size;
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  /** Queues of `kind` configured before `position` (which therefore receive an event there). */
  configuredBefore<K extends QueueConfig['kind']>(kind: K, position: bigint): Array<Extract<QueueConfig, { kind: K }>> {
    const out: Array<Extract<QueueConfig, { kind: K }>> = [];
    for (const e of this.byName.values()) {
      if (e.config.kind === kind && e.configuredAt < position) out.push(e.config as Extract<QueueConfig, { kind: K }>);
    }
    return out;
  }
}
