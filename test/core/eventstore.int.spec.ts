import { expect } from 'chai';
import { isLeft, isRight } from 'fp-ts/Either';
import { jsonEvent, NO_STREAM } from '@eventstore/db-client';
import { runCommand } from '../../src/core/command';
import { encodeEvent, MalformedEventError } from '../../src/core/events';
import { aggregateStream, appendEvents, ConcurrencyError, readStream } from '../../src/core/eventstore';
import { uniqueStream, withEventStore } from '../support/eventstore';
import { counter, counterEvents, onCounter, type CounterEvent } from './toy-counter';

describe('core/eventstore against the event store', function () {
  this.timeout(30_000);
  const es = withEventStore();
  const now = new Date('2024-06-01T12:00:00.000Z');

  it('appends through runCommand and aggregates the same state back', async () => {
    const stream = uniqueStream('counter');
    const common = { now, metadata: { correlationId: 'corr-1', user: 'alice' } };
    const opened = await runCommand(es.client, onCounter(stream), { type: 'OpenCounter', name: 'hall' }, common);
    if (!isRight(opened)) return expect.fail(JSON.stringify(opened.left));
    expect(opened.right.nextExpectedRevision).to.equal(0n);
    expect(opened.right.position).to.not.equal(undefined);
    const inc = await runCommand(es.client, onCounter(stream), { type: 'Increment', by: 4 }, common);
    expect(isRight(inc) && inc.right.state).to.include({ status: 'open', value: 4 });

    const { state, revision } = await aggregateStream({ client: es.client, stream, codecs: counterEvents, ...counter });
    expect(revision).to.equal(1n);
    expect(state).to.deep.equal({ status: 'open', name: 'hall', value: 4, openedAt: now });

    const read = await readStream(es.client, stream, counterEvents);
    expect(read.revision).to.equal(1n);
    expect(read.events.map((e) => e.type)).to.deep.equal(['CounterOpened', 'CounterIncremented']);
    expect(read.events[0]?.metadata).to.deep.equal({ correlationId: 'corr-1', user: 'alice' });
    expect(read.events[1]?.revision).to.equal(1n);
  });

  it('returns the domain error and appends nothing', async () => {
    const stream = uniqueStream('counter');
    const result = await runCommand(es.client, onCounter(stream), { type: 'Increment', by: 1 }, { now });
    expect(isLeft(result) && result.left).to.deep.equal({ code: 'NOT_FOUND' });
    expect((await readStream(es.client, stream, counterEvents)).revision).to.equal(NO_STREAM);
  });

  it('reports a missing stream as no_stream with the initial state', async () => {
    const result = await aggregateStream({ client: es.client, stream: uniqueStream('counter'), codecs: counterEvents, ...counter });
    expect(result).to.deep.equal({ state: { status: 'none' }, revision: NO_STREAM });
  });

  it('maps a wrong expected revision to ConcurrencyError with stream, expected and actual', async () => {
    const stream = uniqueStream('counter');
    const opened: CounterEvent = { type: 'CounterOpened', data: { name: 'x', openedAt: now } };
    await appendEvents(es.client, stream, [encodeEvent(counterEvents, opened)], NO_STREAM);
    const inc = encodeEvent(counterEvents, { type: 'CounterIncremented', data: { by: 1 } });
    await appendEvents(es.client, stream, [inc], 0n);

    const stale = await appendEvents(es.client, stream, [encodeEvent(counterEvents, opened)], NO_STREAM).then(
      () => expect.fail('append should have failed'),
      (err: unknown) => err,
    );
    expect(stale).to.be.instanceOf(ConcurrencyError);
    const e = stale as ConcurrencyError;
    expect(e.streamId).to.equal(stream);
    expect(e.expected).to.equal(NO_STREAM);
    expect(e.actual).to.equal(1n);

    // A fresh event: re-sending `inc` itself would be an idempotent no-op.
    const again = encodeEvent(counterEvents, { type: 'CounterIncremented', data: { by: 1 } });
    const behind = await appendEvents(es.client, stream, [again], 0n).catch((err: unknown) => err);
    expect(behind).to.be.instanceOf(ConcurrencyError);
    expect((behind as ConcurrencyError).expected).to.equal(0n);
    expect((behind as ConcurrencyError).actual).to.equal(1n);
  });

  it('re-reads and decides again after losing a race, and gives up when retries are spent', async () => {
    const stream = uniqueStream('counter');
    await runCommand(es.client, onCounter(stream), { type: 'OpenCounter', name: 'r' }, { now });
    // Parallel commands read the same revision; all but one lose the append race.
    const increment = (retries: number) =>
      runCommand(es.client, onCounter(stream, { retries }), { type: 'Increment', by: 1 }, { now });
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => increment(10)));
    expect(results.every(isRight)).to.equal(true);
    const { state, revision } = await aggregateStream({ client: es.client, stream, codecs: counterEvents, ...counter });
    expect(state).to.include({ value: 5 });
    expect(revision).to.equal(5n);

    const settled = await Promise.allSettled([1, 2, 3, 4, 5].map(() => increment(0)));
    const lost = settled.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason as unknown);
    expect(lost.length).to.be.greaterThan(0);
    for (const err of lost) expect(err).to.be.instanceOf(ConcurrencyError);
    const after = await aggregateStream({ client: es.client, stream, codecs: counterEvents, ...counter });
    expect(after.state).to.include({ value: 5 + settled.length - lost.length });
  });

  it('fails at once when the caller insists on a stale revision (If-Match)', async () => {
    const stream = uniqueStream('counter');
    await runCommand(es.client, onCounter(stream), { type: 'OpenCounter', name: 'm' }, { now });
    const err = await runCommand(es.client, onCounter(stream), { type: 'Increment', by: 1 }, { now, expectedRevision: NO_STREAM }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ConcurrencyError);
    expect((err as ConcurrencyError).actual).to.equal(0n);
    const ok = await runCommand(es.client, onCounter(stream), { type: 'Increment', by: 1 }, { now, expectedRevision: 0n });
    expect(isRight(ok) && ok.right.nextExpectedRevision).to.equal(1n);
  });

  it('reports a malformed stored event with its stream and revision', async () => {
    const stream = uniqueStream('counter');
    await runCommand(es.client, onCounter(stream), { type: 'OpenCounter', name: 'bad' }, { now });
    // Written by something that bypassed our codecs.
    await es.client.appendToStream(stream, jsonEvent({ type: 'CounterIncremented', data: { by: 'three' } }));
    const err = await readStream(es.client, stream, counterEvents).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(MalformedEventError);
    const m = err as MalformedEventError;
    expect(m.streamId).to.equal(stream);
    expect(m.revision).to.equal(1n);
    expect(m.eventType).to.equal('CounterIncremented');
    expect(m.errors).to.deep.equal([{ path: 'data.by', reason: 'expected number, got "three"' }]);
    const viaCommand = await runCommand(es.client, onCounter(stream), { type: 'Increment', by: 1 }, { now }).catch((e: unknown) => e);
    expect(viaCommand).to.be.instanceOf(MalformedEventError);
  });
});
