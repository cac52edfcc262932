// runCommand against the real event store: the lost-race retries, the 409
// a race still lost becomes, a stale If-Match revision, and when it waits
// for the read model. Races are made deterministic by a client whose every
// append is preceded by another writer's append to the same stream.
import { expect } from 'chai';
import { isLeft, isRight } from 'fp-ts/Either';
import { NO_STREAM, type EventStoreDBClient, type Position } from '@eventstore/db-client';
import { runCommand, type CommandStream } from '../../src/core/command';
import { encodeEvent } from '../../src/core/events';
import { aggregateStream, ConcurrencyError, readStream } from '../../src/core/eventstore';
import { ApiError } from '../../src/core/http/errors';
import { uniqueStream, withEventStore } from '../support/eventstore';
import { counter, counterEvents, onCounter, type CounterCommand, type CounterError, type CounterState } from './toy-counter';

describe('core/command runCommand against the event store', function () {
  this.timeout(30_000);
  const es = withEventStore();
  const now = new Date('2024-06-01T12:00:00.000Z');

  /** The real client, except that the first `times` appends each lose a race to an increment by 10. */
  const racedClient = (times: number): { client: EventStoreDBClient; interloped: () => number } => {
    let interloped = 0;
    const client = new Proxy(es.client, {
      get(target, prop, receiver) {
        if (prop !== 'appendToStream') return Reflect.get(target, prop, receiver) as unknown;
        return async (...args: Parameters<EventStoreDBClient['appendToStream']>) => {
          if (interloped < times) {
            interloped++;
            await target.appendToStream(args[0], encodeEvent(counterEvents, { type: 'CounterIncremented', data: { by: 10 } }));
          }
          return target.appendToStream(...args);
        };
      },
    });
    return { client, interloped: () => interloped };
  };

  /** Counts the decisions, so a test sees how often the command was re-decided. */
  const counted = (stream: CommandStream<typeof counterEvents, CounterCommand, CounterState, CounterError>) => {
    let decisions = 0;
    const target = { ...stream, decider: { ...stream.decider, decide: (...a: Parameters<typeof counter.decide>) => (decisions++, counter.decide(...a)) } };
    return { target, decisions: () => decisions };
  };

  const open = async (stream: string): Promise<void> => {
    const opened = await runCommand(es.client, onCounter(stream), { type: 'OpenCounter', name: 'c' }, { now });
    expect(isRight(opened)).to.equal(true);
  };

  it('re-reads and decides again on fresh state after losing races, within its retries', async () => {
    const stream = uniqueStream('counter');
    await open(stream);
    const raced = racedClient(2);
    const { target, decisions } = counted(onCounter(stream, { retries: 2, conflict: 'counter changed; retry' }));
    const result = await runCommand(raced.client, target, { type: 'Increment', by: 1 }, { now });
    if (!isRight(result)) return expect.fail(JSON.stringify(result.left));
    expect(raced.interloped()).to.equal(2);
    expect(decisions()).to.equal(3);
    // Decided on the state the other writer left: 10 + 10 + 1.
    expect(result.right.state).to.include({ value: 21 });
    expect(result.right.nextExpectedRevision).to.equal(3n);
    expect((await aggregateStream({ client: es.client, stream, codecs: counterEvents, ...counter })).state).to.include({ value: 21 });
  });

  it('answers the stream\'s 409 once the retries are spent, and appends nothing of its own', async () => {
    const stream = uniqueStream('counter');
    await open(stream);
    const raced = racedClient(Infinity);
    const { target, decisions } = counted(onCounter(stream, { retries: 1, conflict: 'counter c changed concurrently; retry' }));
    const err = await runCommand(raced.client, target, { type: 'Increment', by: 1 }, { now }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ApiError);
    expect((err as ApiError).status).to.equal(409);
    expect((err as ApiError).message).to.equal('counter c changed concurrently; retry');
    expect(decisions()).to.equal(2);
    const read = await readStream(es.client, stream, counterEvents);
    expect(read.events.map((e) => e.type === 'CounterIncremented' && e.data.by)).to.deep.equal([false, 10, 10]);
  });

  it('lets the ConcurrencyError itself escape when the stream names no 409 message', async () => {
    const stream = uniqueStream('counter');
    await open(stream);
    const err = await runCommand(racedClient(Infinity).client, onCounter(stream, { retries: 0 }), { type: 'Increment', by: 1 }, { now }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ConcurrencyError);
    expect((err as ConcurrencyError).streamId).to.equal(stream);
  });

  it('fails a stale expected revision with the 409 at once, without deciding', async () => {
    const stream = uniqueStream('counter');
    await open(stream);
    const { target, decisions } = counted(onCounter(stream, { retries: 5, conflict: 'stale' }));
    const err = await runCommand(es.client, target, { type: 'Increment', by: 1 }, { now, expectedRevision: NO_STREAM }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ApiError);
    expect((err as ApiError).status).to.equal(409);
    expect(decisions()).to.equal(0);
    expect((await readStream(es.client, stream, counterEvents)).revision).to.equal(0n);
  });

  it('waits for the read model at the append\'s position, and not after a refusal', async () => {
    const stream = uniqueStream('counter');
    const waited: Array<Position | undefined> = [];
    const waiter = { waitFor: async (p: Position | undefined) => void waited.push(p) };
    const refused = await runCommand(es.client, onCounter(stream), { type: 'Increment', by: 1 }, { now, waiter });
    expect(isLeft(refused) && refused.left).to.deep.equal({ code: 'NOT_FOUND' });
    expect(waited).to.deep.equal([]);
    const opened = await runCommand(es.client, onCounter(stream), { type: 'OpenCounter', name: 'w' }, { now, waiter });
    if (!isRight(opened)) return expect.fail('open refused');
    expect(opened.right.position).to.not.equal(undefined);
    expect(waited).to.deep.equal([opened.right.position]);
  });
});
