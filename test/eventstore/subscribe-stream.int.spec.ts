// subscribeToStream: catch-up from START / a revision (exclusive) / END,
// the switch to live, the 'confirmation' and 'caughtUp' signals, unsubscribe.
import { expect } from 'chai';
import { END, NO_STREAM, START, type ResolvedEvent } from '@eventstore/db-client';
import { uniqueStream, withEventStore } from '../support/eventstore';
import { SubscriptionRecorder, testEvents } from '../support/helpers';
import { sleep } from '../support/wait';

const revs = (events: ResolvedEvent[]): Array<bigint | undefined> => events.map((e) => e.event?.revision);

describe('event store contract: subscribe to stream', () => {
  const fx = withEventStore();
  const recorders: Array<SubscriptionRecorder<ResolvedEvent>> = [];

  const subscribe = (stream: string, fromRevision: typeof START | typeof END | bigint): SubscriptionRecorder<ResolvedEvent> => {
    const rec = new SubscriptionRecorder<ResolvedEvent>(fx.client.subscribeToStream(stream, { fromRevision }));
    recorders.push(rec);
    return rec;
  };

  afterEach(async () => {
    await Promise.all(recorders.splice(0).map((r) => r.stop()));
  });

  it('from START: confirms, delivers history in order, signals caughtUp, then delivers live events', async () => {
    const stream = uniqueStream('sub-start');
    const history = testEvents(3);
    await fx.client.appendToStream(stream, history, { expectedRevision: NO_STREAM });
    const rec = subscribe(stream, START);
    await rec.waitForConfirmation();
    const first = await rec.waitForCount(3);
    expect(revs(first)).to.deep.equal([0n, 1n, 2n]);
    expect(first.map((e) => e.event?.id)).to.deep.equal(history.map((e) => e.id));
    if (fx.store.embedded) {
      await rec.waitForCaughtUp();
      expect(rec.eventsAtCaughtUp, 'events delivered before caughtUp').to.equal(3);
    } else if (rec.caughtUp) {
      // Servers from 23.10 send caughtUp; older ones never do.
      expect(rec.eventsAtCaughtUp).to.equal(3);
    }
    const live = testEvents(2, { from: 3 });
    await fx.client.appendToStream(stream, live, { expectedRevision: 2n });
    const all = await rec.waitForCount(5);
    expect(revs(all)).to.deep.equal([0n, 1n, 2n, 3n, 4n]);
    expect(all.slice(3).map((e) => e.event?.id)).to.deep.equal(live.map((e) => e.id));
    expect(rec.subscription.id === undefined || typeof rec.subscription.id === 'string').to.equal(true);
  });

  it('from a revision: exclusive, the first event received is revision + 1', async () => {
    const stream = uniqueStream('sub-rev');
    await fx.client.appendToStream(stream, testEvents(4), { expectedRevision: NO_STREAM });
    const rec = subscribe(stream, 1n);
    await rec.waitForConfirmation();
    const got = await rec.waitForCount(2);
    expect(revs(got)).to.deep.equal([2n, 3n]);
    await fx.client.appendToStream(stream, testEvents(1, { from: 4 }), { expectedRevision: 3n });
    const all = await rec.waitForCount(3);
    expect(revs(all)).to.deep.equal([2n, 3n, 4n]);
    expect((all[2]?.event?.data as { n: number }).n).to.equal(4);
  });

  it('from END: receives only events appended after subscribing', async () => {
    const stream = uniqueStream('sub-end');
    await fx.client.appendToStream(stream, testEvents(3), { expectedRevision: NO_STREAM });
    const rec = subscribe(stream, END);
    await rec.waitForConfirmation();
    if (fx.store.embedded) await rec.waitForCaughtUp();
    await sleep(200);
    expect(rec.events, 'nothing before the live appends').to.have.length(0);
    await fx.client.appendToStream(stream, testEvents(1, { from: 3 }));
    await fx.client.appendToStream(stream, testEvents(1, { from: 4 }));
    const got = await rec.waitForCount(2);
    expect(revs(got)).to.deep.equal([3n, 4n]);
    await sleep(200);
    expect(rec.events).to.have.length(2);
  });

  it('from START on a stream that does not exist yet: delivers it once it is created', async () => {
    const stream = uniqueStream('sub-later');
    const rec = subscribe(stream, START);
    await rec.waitForConfirmation();
    const events = testEvents(2);
    await fx.client.appendToStream(stream, events, { expectedRevision: NO_STREAM });
    const got = await rec.waitForCount(2);
    expect(revs(got)).to.deep.equal([0n, 1n]);
    expect(got.map((e) => e.event?.id)).to.deep.equal(events.map((e) => e.id));
  });

  it('crosses from catch-up to live without gaps or duplicates while appends continue', async function () {
    this.timeout(60_000);
    const stream = uniqueStream('sub-transition');
    for (let i = 0; i < 3; i++) await fx.client.appendToStream(stream, testEvents(100, { from: i * 100 }));
    const rec = subscribe(stream, START);
    // Keep appending while the subscription is catching up.
    for (let i = 0; i < 25; i++) {
      await fx.client.appendToStream(stream, testEvents(2, { from: 300 + i * 2 }));
      if (i % 5 === 0) await sleep(5);
    }
    const got = await rec.waitForCount(350, 30_000);
    expect(revs(got)).to.deep.equal(Array.from({ length: 350 }, (_, i) => BigInt(i)));
    expect(got.map((e) => (e.event?.data as { n: number }).n)).to.deep.equal(Array.from({ length: 350 }, (_, i) => i));
    await sleep(300);
    expect(rec.events, 'no duplicates after the transition').to.have.length(350);
  });

  it('stops delivering after unsubscribe', async () => {
    const stream = uniqueStream('sub-unsub');
    await fx.client.appendToStream(stream, testEvents(2), { expectedRevision: NO_STREAM });
    const rec = subscribe(stream, START);
    await rec.waitForCount(2);
    await rec.stop();
    await sleep(100);
    await fx.client.appendToStream(stream, testEvents(3, { from: 2 }), { expectedRevision: 1n });
    // A subscription still open receives the new events: by then the stopped one would have too.
    const control = subscribe(stream, START);
    await control.waitForCount(5);
    expect(rec.events).to.have.length(2);
    expect(rec.errors, 'unsubscribe is not an error').to.deep.equal([]);
  });
});
