import { expect } from 'chai';
import { isLeft, isRight } from 'fp-ts/Either';
import { decideOnHistory } from '../../src/core/command';
import { counter, type CounterCommand, type CounterEvent } from './toy-counter';

const now = new Date('2024-03-04T05:06:07Z');
const given = (...history: CounterEvent[]) => ({
  when: (command: CounterCommand) => decideOnHistory(counter, history, command, now),
});
const opened: CounterEvent = { type: 'CounterOpened', data: { name: 'c', openedAt: new Date(0) } };

describe('core/command decideOnHistory (toy counter)', () => {
  it('opens a new counter at the time passed in', () => {
    const result = given().when({ type: 'OpenCounter', name: 'c' });
    if (!isRight(result)) return expect.fail(JSON.stringify(result.left));
    expect(result.right.events).to.deep.equal([{ type: 'CounterOpened', data: { name: 'c', openedAt: now } }]);
    expect(result.right.state).to.deep.equal({ status: 'open', name: 'c', value: 0, openedAt: now });
  });

  it('folds the history before deciding and returns the state after the new events', () => {
    const result = given(opened, { type: 'CounterIncremented', data: { by: 2 } }).when({ type: 'Increment', by: 3 });
    if (!isRight(result)) return expect.fail(JSON.stringify(result.left));
    expect(result.right.events).to.deep.equal([{ type: 'CounterIncremented', data: { by: 3 } }]);
    expect(result.right.state).to.include({ status: 'open', value: 5 });
  });

  it('returns the domain error instead of events', () => {
    expect(given(opened).when({ type: 'OpenCounter', name: 'again' })).to.deep.equal({
      _tag: 'Left',
      left: { code: 'ALREADY_EXISTS' },
    });
    const closed = given(opened, { type: 'CounterClosed', data: { reason: 'done' } }).when({ type: 'Increment', by: 1 });
    expect(isLeft(closed) && closed.left).to.deep.equal({ code: 'CLOSED' });
  });

  it('allows a decision with no events (idempotent command)', () => {
    const result = given(opened, { type: 'CounterClosed', data: { reason: 'x' } }).when({ type: 'CloseCounter', reason: 'y' });
    expect(isRight(result) && result.right.events).to.deep.equal([]);
  });
});
