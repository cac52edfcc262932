// Server-side filters on subscribeToAll: stream-name and event-type filters
// by prefix and regex, excludeSystemEvents, and checkpoints while scanning
// events that do not match.
import { expect } from 'chai';
import {
  eventTypeFilter,
  excludeSystemEvents,
  jsonEvent,
  streamNameFilter,
  type AllStreamResolvedEvent,
  type Filter,
  type Position,
} from '@eventstore/db-client';
import { uniqueToken, withEventStore } from '../support/eventstore';
import { SubscriptionRecorder, comparePositions, lastAllPosition, testEvents } from '../support/helpers';
import { sleep } from '../support/wait';

describe('event store contract: subscribe to $all with filters', () => {
  const fx = withEventStore();
  const recorders: Array<SubscriptionRecorder<AllStreamResolvedEvent>> = [];

  // Start from a non-empty log: subscribing from the end of $all must not
  // depend on how the store treats an empty log (covered in subscribe-all).
  before(async () => {
    await fx.client.appendToStream(`filters-seed-${uniqueToken()}`, testEvents(1));
  });

  afterEach(async () => {
    await Promise.all(recorders.splice(0).map((r) => r.stop()));
  });

  // Subscribes from the current end of $all (exclusive), so everything this
  // test appends afterwards is seen, first in catch-up, then live.
  async function subscribeFiltered(filter: Filter): Promise<SubscriptionRecorder<AllStreamResolvedEvent>> {
    const fromPosition = await lastAllPosition(fx.client);
    const rec = new SubscriptionRecorder<AllStreamResolvedEvent>(fx.client.subscribeToAll({ fromPosition, filter }));
    recorders.push(rec);
    await rec.waitForConfirmation();
    return rec;
  }

  async function appendOne(stream: string, type: string, n: number): Promise<string> {
    const ev = jsonEvent({ type, data: { n } });
    await fx.client.appendToStream(stream, ev);
    return ev.id;
  }

  /** Waits for the sentinel, then a little longer to catch any late stragglers. */
  async function receivedUntil(rec: SubscriptionRecorder<AllStreamResolvedEvent>, sentinelId: string): Promise<AllStreamResolvedEvent[]> {
    await rec.waitUntil(() => rec.events.some((e) => e.event?.id === sentinelId), 20_000, 'the sentinel event');
    await sleep(200);
    return rec.events;
  }

  it('streamNameFilter({prefixes}) delivers only streams with one of the prefixes', async () => {
    const t = uniqueToken();
    const rec = await subscribeFiltered(streamNameFilter({ prefixes: [`fa${t}-`, `fb${t}-`] }));
    const expected: string[] = [];
    expected.push(await appendOne(`fa${t}-1`, 'Seen', 1));
    await appendOne(`fc${t}-1`, 'Seen', 2);
    expected.push(await appendOne(`fb${t}-1`, 'Seen', 3));
    await appendOne(`x-fa${t}-1`, 'Seen', 4);
    await appendOne(`fa${t}`, 'Seen', 5);
    const sentinel = await appendOne(`fa${t}-2`, 'Seen', 6);
    expected.push(sentinel);
    const got = await receivedUntil(rec, sentinel);
    expect(got.map((e) => e.event?.id)).to.deep.equal(expected);
    for (const e of got) expect(e.event!.streamId.startsWith(`fa${t}-`) || e.event!.streamId.startsWith(`fb${t}-`)).to.equal(true);
  });

  it('streamNameFilter({regex}) delivers only streams matching the regex', async () => {
    const t = uniqueToken();
    const rec = await subscribeFiltered(streamNameFilter({ regex: `^rx${t}-(alpha|beta)-\\d+$` }));
    const expected: string[] = [];
    expected.push(await appendOne(`rx${t}-alpha-1`, 'Seen', 1));
    await appendOne(`rx${t}-gamma-1`, 'Seen', 2);
    await appendOne(`rx${t}-alpha-x`, 'Seen', 3);
    expected.push(await appendOne(`rx${t}-beta-22`, 'Seen', 4));
    await appendOne(`pre-rx${t}-beta-1`, 'Seen', 5);
    const sentinel = await appendOne(`rx${t}-beta-3`, 'Seen', 6);
    expected.push(sentinel);
    const got = await receivedUntil(rec, sentinel);
    expect(got.map((e) => e.event?.id)).to.deep.equal(expected);
  });

  it('eventTypeFilter({prefixes}) delivers only event types with one of the prefixes', async () => {
    const t = uniqueToken();
    const stream = `et-${t}`;
    const rec = await subscribeFiltered(eventTypeFilter({ prefixes: [`Tag${t}Read`, `Tag${t}Lost`] }));
    const expected: string[] = [];
    expected.push(await appendOne(stream, `Tag${t}Read`, 1));
    await appendOne(stream, `Tag${t}Moved`, 2);
    expected.push(await appendOne(stream, `Tag${t}LostForGood`, 3));
    await appendOne(stream, `XTag${t}Read`, 4);
    const sentinel = await appendOne(`${stream}-other`, `Tag${t}ReadAgain`, 5);
    expected.push(sentinel);
    const got = await receivedUntil(rec, sentinel);
    expect(got.map((e) => e.event?.id)).to.deep.equal(expected);
    expect(got.map((e) => e.event?.type)).to.deep.equal([`Tag${t}Read`, `Tag${t}LostForGood`, `Tag${t}ReadAgain`]);
  });

  it('eventTypeFilter({regex}) delivers only event types matching the regex', async () => {
    const t = uniqueToken();
    const stream = `etr-${t}`;
    const rec = await subscribeFiltered(eventTypeFilter({ regex: `^E${t}(Created|Deleted)$` }));
    const expected: string[] = [];
    expected.push(await appendOne(stream, `E${t}Created`, 1));
    await appendOne(stream, `E${t}Updated`, 2);
    await appendOne(stream, `E${t}CreatedLater`, 3);
    const sentinel = await appendOne(stream, `E${t}Deleted`, 4);
    expected.push(sentinel);
    const got = await receivedUntil(rec, sentinel);
    expect(got.map((e) => e.event?.id)).to.deep.equal(expected);
  });

  it('excludeSystemEvents() drops events whose type starts with $', async () => {
    const t = uniqueToken();
    const stream = `sys-${t}`;
    const rec = await subscribeFiltered(excludeSystemEvents());
    const first = await appendOne(stream, 'UserEvent', 1);
    // Writes a $metadata event to the $$ metastream.
    await fx.client.setStreamMetadata(stream, { maxCount: 100 });
    await fx.client.appendToStream(`${stream}-sys`, jsonEvent({ type: '$systemish', data: { n: 2 } }));
    const sentinel = await appendOne(stream, 'UserEvent', 3);
    const got = await receivedUntil(rec, sentinel);
    expect(got.filter((e) => e.event?.type.startsWith('$')), 'system events').to.deep.equal([]);
    const ours = got.filter((e) => e.event?.streamId === stream || e.event?.streamId === `$$${stream}` || e.event?.streamId === `${stream}-sys`);
    expect(ours.map((e) => e.event?.id)).to.deep.equal([first, sentinel]);
  });

  describe('checkpoints', () => {
    async function checkpointSubscription(
      fromPosition: Position | 'start',
      t: string,
    ): Promise<{ rec: SubscriptionRecorder<AllStreamResolvedEvent>; checkpoints: Position[] }> {
      const checkpoints: Position[] = [];
      const filter = streamNameFilter({
        prefixes: [`nevermatches-${t}`],
        checkpointInterval: 1,
        maxSearchWindow: 10,
        checkpointReached: (_sub, position) => {
          checkpoints.push(position);
        },
      });
      const rec = new SubscriptionRecorder<AllStreamResolvedEvent>(fx.client.subscribeToAll({ fromPosition, filter }));
      recorders.push(rec);
      return { rec, checkpoints };
    }

    function expectIncreasingCheckpoints(checkpoints: Position[], after: Position | 'start'): void {
      expect(checkpoints.length, 'number of checkpoints').to.be.at.least(2);
      for (let i = 1; i < checkpoints.length; i++) {
        expect(comparePositions(checkpoints[i - 1]!, checkpoints[i]!), `checkpoint ${i} not before ${i - 1}`).to.be.at.most(0);
      }
      expect(comparePositions(checkpoints[0]!, checkpoints[checkpoints.length - 1]!)).to.equal(-1);
      if (after !== 'start') expect(comparePositions(checkpoints[checkpoints.length - 1]!, after)).to.equal(1);
    }

    it('reports checkpoints while catching up over many non-matching events', async function () {
      this.timeout(60_000);
      const t = uniqueToken();
      const from = await lastAllPosition(fx.client);
      for (let i = 0; i < 20; i++) await fx.client.appendToStream(`cp-${t}-${i % 4}`, testEvents(10));
      const { rec, checkpoints } = await checkpointSubscription(from, t);
      await rec.waitForConfirmation();
      // The whole scan: two checkpoints, the last one past our first appended event.
      const pastFrom = (): boolean => checkpoints.length >= 2 && (from === 'start' || comparePositions(checkpoints[checkpoints.length - 1]!, from) === 1);
      await rec.waitUntil(pastFrom, 20_000, 'two checkpoints, the last past the first appended event');
      expectIncreasingCheckpoints(checkpoints, from);
      expect(rec.events, 'nothing matches the filter').to.deep.equal([]);
    });

    it('reports checkpoints while live when many non-matching events are appended', async function () {
      this.timeout(60_000);
      const t = uniqueToken();
      const from = await lastAllPosition(fx.client);
      const { rec, checkpoints } = await checkpointSubscription(from, t);
      await rec.waitForConfirmation();
      if (fx.store.embedded) await rec.waitForCaughtUp();
      const before = checkpoints.length;
      let lastAppend: Position | undefined;
      for (let i = 0; i < 20; i++) {
        const r = await fx.client.appendToStream(`cplive-${t}-${i % 4}`, testEvents(10));
        lastAppend = r.position;
      }
      await rec.waitUntil(() => checkpoints.length >= before + 2, 20_000, 'two checkpoints after the live appends');
      expectIncreasingCheckpoints(checkpoints, from);
      expect(lastAppend).to.not.equal(undefined);
      expect(rec.events, 'nothing matches the filter').to.deep.equal([]);
    });
  });
});
