// readAll ($all): direction, START/END/a position, maxCount, global order.
// Against a shared real server other writers may interleave, so assertions
// look at this test's own streams inside the global order.
import { expect } from 'chai';
import {
  BACKWARDS,
  END,
  FORWARDS,
  START,
  type AllStreamResolvedEvent,
  type AppendResult,
  type Position,
} from '@eventstore/db-client';
import { uniqueStream, withEventStore } from '../support/eventstore';
import { collect, comparePositions, testEvents } from '../support/helpers';

function positionsOf(events: AllStreamResolvedEvent[]): Position[] {
  return events.map((e) => {
    const p = e.event?.position;
    expect(p, `position of ${e.event?.streamId}@${e.event?.revision}`).to.not.equal(undefined);
    return p!;
  });
}

function expectStrictlyIncreasing(ps: Position[]): void {
  for (let i = 1; i < ps.length; i++) expect(comparePositions(ps[i - 1]!, ps[i]!), `position ${i}`).to.equal(-1);
}

function expectStrictlyDecreasing(ps: Position[]): void {
  for (let i = 1; i < ps.length; i++) expect(comparePositions(ps[i - 1]!, ps[i]!), `position ${i}`).to.equal(1);
}

describe('event store contract: read $all', () => {
  const fx = withEventStore();
  let streamA: string;
  let streamB: string;
  // One single-event append per entry, in append order, alternating streams.
  const appended: Array<{ stream: string; id: string; result: AppendResult }> = [];

  before(async () => {
    streamA = uniqueStream('readall-a');
    streamB = uniqueStream('readall-b');
    for (let i = 0; i < 6; i++) {
      const stream = i % 2 === 0 ? streamA : streamB;
      const [ev] = testEvents(1, { from: i });
      const result = await fx.client.appendToStream(stream, ev!);
      appended.push({ stream, id: ev!.id, result });
    }
  });

  const ours = (events: AllStreamResolvedEvent[]): AllStreamResolvedEvent[] =>
    events.filter((e) => e.event?.streamId === streamA || e.event?.streamId === streamB);

  it('reads forwards from START in increasing position order, every event with a position', async () => {
    const read = await collect(fx.client.readAll({ fromPosition: START, direction: FORWARDS, maxCount: 200 }));
    expect(read.length).to.be.greaterThan(0);
    expectStrictlyIncreasing(positionsOf(read));
    if (fx.store.embedded) {
      // A fresh embedded store holds little else, so our events are all within the first 200.
      expect(ours(read).map((e) => e.event?.id)).to.deep.equal(appended.map((a) => a.id));
    }
  });

  it('honours maxCount', async () => {
    const read = await collect(fx.client.readAll({ fromPosition: START, maxCount: 3 }));
    expect(read).to.have.length(3);
    const back = await collect(fx.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 2 }));
    expect(back).to.have.length(2);
  });

  it('reads forwards from the position returned by an append, starting with that event', async () => {
    const from = appended[2]!;
    const read = await collect(fx.client.readAll({ fromPosition: from.result.position!, maxCount: 500 }));
    expect(read[0]?.event?.id).to.equal(from.id);
    expect(read[0]?.event?.position).to.deep.equal(from.result.position);
    expectStrictlyIncreasing(positionsOf(read));
    expect(ours(read).map((e) => e.event?.id)).to.deep.equal(appended.slice(2).map((a) => a.id));
  });

  it("gives each event the same $all position its single-event append returned", async () => {
    const read = await collect(fx.client.readAll({ fromPosition: appended[0]!.result.position!, maxCount: 500 }));
    const byId = new Map(ours(read).map((e) => [e.event!.id, e.event!.position]));
    for (const a of appended) expect(byId.get(a.id), a.id).to.deep.equal(a.result.position);
  });

  it('keeps our events in append order with increasing positions and correct stream revisions', async () => {
    const read = await collect(fx.client.readAll({ fromPosition: appended[0]!.result.position!, maxCount: 500 }));
    const mine = ours(read);
    expect(mine.map((e) => e.event?.id)).to.deep.equal(appended.map((a) => a.id));
    expect(mine.map((e) => e.event?.streamId)).to.deep.equal(appended.map((a) => a.stream));
    expect(mine.map((e) => e.event?.revision)).to.deep.equal([0n, 0n, 1n, 1n, 2n, 2n]);
    expectStrictlyIncreasing(positionsOf(mine));
    expect(mine.every((e) => e.event?.isJson === true && e.event.type === 'TestEvent')).to.equal(true);
  });

  it('reads backwards from END, newest first', async () => {
    const last = await fx.client.appendToStream(streamA, testEvents(1, { from: 99 }));
    const read = await collect(fx.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 50 }));
    expect(read.length).to.be.greaterThan(0);
    expectStrictlyDecreasing(positionsOf(read));
    const newestOurs = ours(read)[0];
    expect(newestOurs?.event?.position).to.deep.equal(last.position);
    if (fx.store.embedded) expect(read[0]?.event?.position).to.deep.equal(last.position);
    const mine = ours(read).map((e) => e.event?.id);
    const expectedTail = appended.map((a) => a.id).reverse();
    // The earlier appends follow, newest first.
    expect(mine.slice(1, 1 + expectedTail.length)).to.deep.equal(expectedTail);
  });

  it('reads backwards from a position: only events before it, newest first', async () => {
    const at = appended[4]!;
    const read = await collect(fx.client.readAll({ fromPosition: at.result.position!, direction: BACKWARDS, maxCount: 500 }));
    const ps = positionsOf(read);
    expectStrictlyDecreasing(ps);
    for (const p of ps) expect(comparePositions(p, at.result.position!)).to.be.at.most(0);
    const mine = ours(read).map((e) => e.event?.id).filter((id) => id !== at.id);
    expect(mine).to.deep.equal(appended.slice(0, 4).map((a) => a.id).reverse());
  });

  it('reads forwards from START with maxCount 1 the first event of the log', async () => {
    const first = await collect(fx.client.readAll({ fromPosition: START, maxCount: 1 }));
    const firstTwo = await collect(fx.client.readAll({ fromPosition: START, maxCount: 2 }));
    expect(first).to.have.length(1);
    expect(first[0]?.event?.position).to.deep.equal(firstTwo[0]?.event?.position);
    expect(comparePositions(first[0]!.event!.position, appended[0]!.result.position!)).to.be.at.most(0);
  });

  it('returns for a multi-event append the position of its last event', async () => {
    const stream = uniqueStream('readall-multi');
    const events = testEvents(5);
    const result = await fx.client.appendToStream(stream, events);
    const read = await collect(fx.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 100 }));
    const mine = read.filter((e) => e.event?.streamId === stream).reverse();
    expect(mine.map((e) => e.event?.id)).to.deep.equal(events.map((e) => e.id));
    expectStrictlyIncreasing(positionsOf(mine));
    expect(mine[4]?.event?.position).to.deep.equal(result.position);
  });

  it('gives events read from their stream the same position as in $all, when the server sends one', async () => {
    const streamRead = await collect(fx.client.readStream(streamA));
    const allRead = await collect(fx.client.readAll({ fromPosition: appended[0]!.result.position!, maxCount: 500 }));
    const allPos = new Map(allRead.map((e) => [e.event!.id, e.event!.position]));
    for (const e of streamRead) {
      if (e.event?.position === undefined) continue; // servers before 22.6
      expect(e.event.position, e.event.id).to.deep.equal(allPos.get(e.event.id));
    }
  });
});
