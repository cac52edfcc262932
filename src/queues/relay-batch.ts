// One handler call of the relay: the messages of a batch of events, built
// event by event and handed to the publisher in slices, so a large batch fanned
// out to many queues stays bounded in memory; a batch larger than the confirm
// window (catching up with many queues) also waits for its own earlier slices.
import type { RecordedDomainEvent } from '../core/events';
import { metrics } from '../core/metrics';
import type { BodySlab } from './body-slab';
import type { ConfirmPublisher, OutMessage } from './publisher';
import type { QueueRegistry } from './registry';

export interface SliceLimits {
  /** Unconfirmed messages of this batch before it waits for confirms. */
  readonly messages: number;
  /** Messages built before they are handed to the connection. */
  readonly flushEvery: number;
}

export type MessagesOf<E> = (events: readonly E[], registry: QueueRegistry, slab: BodySlab, out: OutMessage[]) => OutMessage[];

/** The batch's messages handed to the connection; `confirmed` settles with the broker's confirms of all of them. */
export interface SentBatch {
  readonly sent: number;
  readonly confirmed: Promise<void>;
}

export class RelayBatch<E extends RecordedDomainEvent<unknown>> {
  private readonly confirmations: Array<Promise<void>> = [];
  private pending: OutMessage[] = [];
  private sent = 0;
  private unconfirmed = 0;
  private failed = false;
  private wakeSender: () => void = () => undefined;

  constructor(
    private readonly publisher: ConfirmPublisher,
    private readonly registry: QueueRegistry,
    private readonly slab: BodySlab,
    private readonly limits: SliceLimits,
    private readonly messagesOf: MessagesOf<E>,
  ) {}

  async send(events: readonly E[]): Promise<SentBatch> {
    for (const e of events) {
      this.messagesOf([e], this.registry, this.slab, this.pending);
      if (this.pending.length >= this.limits.flushEvery) await this.flush();
      // Not confirmed: the batch fails (its checkpoint is never saved); sending the rest is pointless.
      if (this.failed) break;
    }
    if (this.pending.length > 0 && !this.failed) await this.flush();
    const confirmed = Promise.all(this.confirmations).then(() => undefined);
    confirmed.catch(() => undefined);
    return { sent: this.sent, confirmed };
  }

  private async flush(): Promise<void> {
    const { confirmed } = await this.publisher.send(this.pending);
    const n = this.pending.length;
    this.confirmations.push(confirmed);
    this.sent += n;
    this.unconfirmed += n;
    this.pending = [];
    metrics.relayUnconfirmed.inc(n);
    const leave = (failed: boolean) => (): void => {
      metrics.relayUnconfirmed.dec(n);
      if (!failed) metrics.relayConfirmed.inc(n);
      this.unconfirmed -= n;
      this.failed ||= failed;
      this.wakeSender();
    };
    confirmed.then(leave(false), leave(true));
    while (this.unconfirmed >= this.limits.messages && !this.failed) await new Promise<void>((r) => (this.wakeSender = r));
  }
}
