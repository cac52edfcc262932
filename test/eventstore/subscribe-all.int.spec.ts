// subscribeToAll without filters: from START / a position (exclusive) / END,
// 'confirmation', 'caughtUp', live delivery and unsubscribe.
import { expect } from 'chai';
import { END, START, type AllStreamResolvedEvent, type AppendResult, type Position } from '@eventstore/db-client';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isRealServer, uniqueStream, withEventStore } from '../support/eventstore';
import { runTsScript } from '../support/child';
import { SubscriptionRecorder, comparePositions, testEvents } from '../support/helpers';
import { sleep } from '../support/wait';

describe('event store contract: subscribe to $all', () => {
  const fx = withEventStore();
  const recorders: Array<SubscriptionRecorder<AllStreamResolvedEvent>> = [];
  let stream: string;
  const appended: Array<{ id: string; result: AppendResult }> = [];

  const subscribe = (fromPosition: typeof START | typeof END | Position): SubscriptionRecorder<AllStreamResolvedEvent> => {
    const rec = new SubscriptionRecorder<AllStreamResolvedEvent>(fx.client.subscribeToAll({ fromPosition }));
    recorders.push(rec);
    return rec;
  };
  const isOurs = (s: string) => (e: AllStreamResolvedEvent): boolean => e.event?.streamId === s;

  before(async () => {
    stream = uniqueStream('suball');
    for (let i = 0; i < 4; i++) {
      const [ev] = testEvents(1, { from: i });
      appended.push({ id: ev!.id, result: await fx.client.appendToStream(stream, ev!) });
    }
  });

  afterEach(async () => {
    await Promise.all(recorders.splice(0).map((r) => r.stop()));
  });

  function expectIncreasing(events: AllStreamResolvedEvent[]): void {
    for (let i = 1; i < events.length; i++) {
      const a = events[i - 1]!.event!.position;
      const b = events[i]!.event!.position;
      expect(comparePositions(a, b), `positions ${i - 1} < ${i}`).to.equal(-1);
    }
  }

  it('from START: confirms, delivers history in log order, signals caughtUp, then live events', async function () {
    this.timeout(60_000);
    const rec = subscribe(START);
    await rec.waitForConfirmation();
    const history = await rec.waitForCount(4, 45_000, isOurs(stream));
    expect(history.map((e) => e.event?.id)).to.deep.equal(appended.map((a) => a.id));
    expect(history.map((e) => e.event?.position)).to.deep.equal(appended.map((a) => a.result.position));
    expect(rec.events.every((e) => e.event?.position !== undefined)).to.equal(true);
    expectIncreasing(rec.events);
    if (fx.store.embedded) {
      await rec.waitForCaughtUp();
      expect(rec.eventsAtCaughtUp).to.be.at.least(4);
    }
    const live = testEvents(1, { from: 4 });
    const liveResult = await fx.client.appendToStream(stream, live);
    const all = await rec.waitForCount(5, 15_000, isOurs(stream));
    expect(all[4]?.event?.id).to.equal(live[0]!.id);
    expect(all[4]?.event?.position).to.deep.equal(liveResult.position);
    expect(all[4]?.event?.revision).to.equal(4n);
    expectIncreasing(rec.events);
  });

  it('from a position: exclusive, everything received lies after it', async () => {
    const from = appended[1]!.result.position!;
    const rec = subscribe(from);
    await rec.waitForConfirmation();
    const got = await rec.waitForCount(2, 15_000, isOurs(stream));
    expect(got.map((e) => e.event?.id)).to.deep.equal(appended.slice(2).map((a) => a.id));
    expect(rec.events.length).to.be.greaterThan(0);
    expect(comparePositions(rec.events[0]!.event!.position, from), 'first event is after the start position').to.equal(1);
    for (const e of rec.events) expect(comparePositions(e.event!.position, from)).to.equal(1);
    expectIncreasing(rec.events);
    const other = uniqueStream('suball-other');
    const [ev] = testEvents(1);
    await fx.client.appendToStream(other, ev!);
    const live = await rec.waitForCount(1, 15_000, isOurs(other));
    expect(live[0]?.event?.id).to.equal(ev!.id);
  });

  it('from END: receives only events appended after subscribing', async () => {
    const rec = subscribe(END);
    await rec.waitForConfirmation();
    if (fx.store.embedded) await rec.waitForCaughtUp();
    const s = uniqueStream('suball-end');
    const events = testEvents(3);
    await fx.client.appendToStream(s, events.slice(0, 1));
    await fx.client.appendToStream(s, events.slice(1));
    const got = await rec.waitForCount(3, 15_000, isOurs(s));
    expect(got.map((e) => e.event?.id)).to.deep.equal(events.map((e) => e.id));
    expect(got.map((e) => e.event?.revision)).to.deep.equal([0n, 1n, 2n]);
    expect(rec.events.filter(isOurs(stream)), 'no history from before the subscription').to.have.length(0);
    expectIncreasing(rec.events);
  });

  it('stops delivering after unsubscribe', async () => {
    const s = uniqueStream('suball-unsub');
    const rec = subscribe(END);
    await rec.waitForConfirmation();
    await fx.client.appendToStream(s, testEvents(1));
    await rec.waitForCount(1, 15_000, isOurs(s));
    await rec.stop();
    await sleep(100);
    // A subscription still open receives the new events: by then the stopped one would have too.
    const control = subscribe(END);
    await control.waitForConfirmation();
    await fx.client.appendToStream(s, testEvents(2, { from: 1 }));
    await control.waitForCount(2, 15_000, isOurs(s));
    expect(rec.events.filter(isOurs(s))).to.have.length(1);
    expect(rec.errors).to.deep.equal([]);
  });

  // A real server's log is never empty, so this only concerns the embedded
  // store; it runs in a child process so a server that spins cannot freeze
  // the test runner.
  describe('on a brand-new, empty log (embedded only, out of process)', () => {
    for (const mode of ['no filter', 'filter']) {
      it(`from START with ${mode}: confirms, then delivers the first event appended`, async function () {
        if (isRealServer()) this.skip();
        this.timeout(60_000);
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tagtrail-empty-'));
        try {
          const res = await runTsScript('test/support/empty-log-probe.ts', [dir, mode === 'filter' ? 'filter' : ''], 30_000);
          const steps = res.lines.map((l) => l['step']);
          expect(steps, `probe steps (timed out: ${res.timedOut}; stderr: ${res.stderr})`).to.deep.equal([
            'started',
            'confirmed',
            'appended',
            'received',
          ]);
          expect(res.lines[3]?.['ok']).to.equal(true);
          expect(res.code).to.equal(0);
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      });
    }
  });
});
