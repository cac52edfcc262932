// Link events (`$>`, data `<revision>@<stream>`) with resolveLinkTos: the
// target and the link on reads and subscriptions; the link alone without the
// option or when its target is gone.
import { expect } from 'chai';
import { binaryEvent, type ResolvedEvent } from '@eventstore/db-client';
import { uniqueStream, withEventStore } from '../support/eventstore';
import { collect, testEvents } from '../support/helpers';
import { withTimeout } from '../support/wait';

const link = (revision: number, stream: string) => binaryEvent({ type: '$>', data: Buffer.from(`${revision}@${stream}`) });
const shape = (e: ResolvedEvent | undefined) => ({ event: e?.event?.type, eventStream: e?.event?.streamId, link: e?.link?.type, linkStream: e?.link?.streamId });

describe('event store contract: link events', () => {
  const fx = withEventStore();

  it('resolves a link to its target on stream and $all reads with resolveLinkTos, and not without', async () => {
    const target = uniqueStream('target');
    const links = uniqueStream('links');
    await fx.client.appendToStream(target, testEvents(3, { type: 'Target' }));
    await fx.client.appendToStream(links, link(1, target));
    const [plain] = await collect(fx.client.readStream(links));
    expect(shape(plain)).to.deep.equal({ event: '$>', eventStream: links, link: undefined, linkStream: undefined });
    const [resolved] = await collect(fx.client.readStream(links, { resolveLinkTos: true }));
    expect(shape(resolved)).to.deep.equal({ event: 'Target', eventStream: target, link: '$>', linkStream: links });
    expect(resolved?.event?.revision).to.equal(1n);
    const [fromAll] = await collect(fx.client.readAll({ fromPosition: plain!.event!.position!, maxCount: 1, resolveLinkTos: true }));
    expect(shape(fromAll)).to.deep.equal({ event: 'Target', eventStream: target, link: '$>', linkStream: links });
  });

  it('answers a link whose target is gone (stream deleted, revision never written) with the link alone', async () => {
    const target = uniqueStream('gone');
    const links = uniqueStream('links');
    await fx.client.appendToStream(target, testEvents(1));
    await fx.client.appendToStream(links, [link(0, target), link(7, target)]);
    await fx.client.deleteStream(target);
    const read = await collect(fx.client.readStream(links, { resolveLinkTos: true }));
    expect(read.map(shape)).to.deep.equal([
      { event: '$>', eventStream: links, link: undefined, linkStream: undefined },
      { event: '$>', eventStream: links, link: undefined, linkStream: undefined },
    ]);
  });

  it('resolves links on a stream subscription with resolveLinkTos', async () => {
    const target = uniqueStream('target');
    const links = uniqueStream('links');
    await fx.client.appendToStream(target, testEvents(1, { type: 'Target' }));
    const subscription = fx.client.subscribeToStream(links, { resolveLinkTos: true });
    try {
      await fx.client.appendToStream(links, link(0, target));
      const first = await withTimeout(
        new Promise<ResolvedEvent>((resolve) => subscription.once('data', resolve)),
        15_000,
        'the linked event on the subscription',
      );
      expect(shape(first)).to.deep.equal({ event: 'Target', eventStream: target, link: '$>', linkStream: links });
    } finally {
      await subscription.unsubscribe();
    }
  });
});
