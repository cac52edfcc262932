// The decisions about a position kept in the event log: only the process
// that took it last may move it, it never goes back, and clearing it makes
// the next holder start from the beginning.
import { expect } from 'chai';
import { isLeft, isRight } from 'fp-ts/Either';
import type { Position } from '@eventstore/db-client';
import { decideOnHistory } from '../../../src/core/command';
import { CheckpointFenced, logCheckpointDecider, type LogCheckpointEvent } from '../../../src/core/subscriptions/log-checkpoint-decider';

const pos = (n: number): Position => ({ commit: BigInt(n), prepare: BigInt(n) });
const now = new Date(0);
const taken = (holder: string, at?: number, skip = 0): LogCheckpointEvent => ({ type: 'CheckpointTaken', data: { holder, at: at === undefined ? null : pos(at), skip } });
const saved = (holder: string, at: number, skip = 0): LogCheckpointEvent => ({ type: 'CheckpointSaved', data: { holder, at: pos(at), skip } });

describe('log checkpoint decider', () => {
  it('a take carries the position over to the new holder; taking it again changes nothing', () => {
    const out = decideOnHistory(logCheckpointDecider, [taken('a'), saved('a', 10, 2)], { type: 'Take', holder: 'b' }, now);
    expect(isRight(out) && out.right.events).to.deep.equal([taken('b', 10, 2)]);
    const again = decideOnHistory(logCheckpointDecider, [taken('b', 10, 2)], { type: 'Take', holder: 'b' }, now);
    expect(isRight(again) && again.right.events).to.deep.equal([]);
  });

  it('a save by a process that no longer holds the position is refused', () => {
    const out = decideOnHistory(logCheckpointDecider, [taken('a'), saved('a', 10), taken('b', 10)], { type: 'Save', holder: 'a', at: pos(20), skip: 0 }, now);
    expect(isLeft(out) && out.left).to.be.instanceOf(CheckpointFenced);
  });

  it('a save moves forward only: position first, then the count within the next event', () => {
    const history = [taken('a'), saved('a', 10, 2)];
    const save = (at: number, skip: number) => decideOnHistory(logCheckpointDecider, history, { type: 'Save', holder: 'a', at: pos(at), skip }, now);
    const events = (at: number, skip: number) => {
      const out = save(at, skip);
      return isRight(out) ? out.right.events.length : -1;
    };
    expect(events(5, 0), 'older position').to.equal(0);
    expect(events(10, 1), 'same position, fewer').to.equal(0);
    expect(events(10, 2), 'the same').to.equal(0);
    expect(events(10, 3), 'same position, more').to.equal(1);
    expect(events(11, 0), 'newer position').to.equal(1);
  });

  it('a cleared position has no holder and starts from the beginning; its last holder is fenced out', () => {
    const history: LogCheckpointEvent[] = [taken('a'), saved('a', 10), { type: 'CheckpointCleared', data: { by: 'capture' } }];
    const save = decideOnHistory(logCheckpointDecider, history, { type: 'Save', holder: 'a', at: pos(20), skip: 0 }, now);
    expect(isLeft(save)).to.equal(true);
    const take = decideOnHistory(logCheckpointDecider, history, { type: 'Take', holder: 'c' }, now);
    expect(isRight(take) && take.right.events).to.deep.equal([taken('c')]);
  });
});
