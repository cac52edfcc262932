// The relay's list of configured queues, rebuilt from QueueConfigured and
// QueueRetired events. Each queue remembers where in the log it was
// configured: it receives the events after that position only, so a replay
// after a restart gives every queue exactly the events it would have received
// live. A retired queue receives nothing more, and is not declared again.
import type { QueueConfiguredData, QueueEvent } from './events';
import type { QueueConfig } from './model';

interface Entry {
  readonly config: QueueConfig;
  /** $all commit position of its QueueConfigured. */
  readonly configuredAt: bigint;
}

export class QueueRegistry {
  private readonly byName = new Map<string, Entry>();
  private readonly retired = new Set<string>();

  /** Idempotent: the registry load and the live subscription may both see one event (also after its retirement). */
  add(data: QueueConfiguredData, configuredAt: bigint): void {
    if (this.byName.has(data.queue) || this.retired.has(data.queue)) return;
    this.byName.set(data.queue, { config: { kind: data.kind, queue: data.queue, deliveryMode: data.deliveryMode, filter: data.filter } as QueueConfig, configuredAt });
  }

  /** For good: a later add() of the same queue (a replay from an older checkpoint) is ignored. */
  retire(queue: string): void {
    this.retired.add(queue);
    this.byName.delete(queue);
  }

  /** A queue event read at `at` (its $all commit position). */
  apply(e: QueueEvent, at: bigint): void {
    if (e.type === 'QueueRetired') this.retire(e.data.queue);
    else this.add(e.data, at);
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
