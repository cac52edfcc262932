import { expect } from 'chai';
import type { Position } from '@eventstore/db-client';
import { comparePositions, isAfter, parsePosition, positionToString } from '../../../src/core/subscriptions/position';
import { PositionWaiters } from '../../../src/core/subscriptions/position-waiters';
import { matchesFilter } from '../../../src/core/subscriptions/catch-up-target';
import { eventTypeFilter, streamNameFilter } from '@eventstore/db-client';

const pos = (c: bigint, p = c): Position => ({ commit: c, prepare: p });

describe('core/subscriptions positions', () => {
  it('orders by commit then prepare, beyond 2^53', () => {
    const big = 2n ** 60n;
    expect(comparePositions(pos(big), pos(big + 1n))).to.equal(-1);
    expect(comparePositions(pos(5n, 7n), pos(5n, 6n))).to.equal(1);
    expect(comparePositions(pos(5n), pos(5n))).to.equal(0);
    expect(isAfter(pos(1n), undefined)).to.equal(true);
    expect(isAfter(pos(1n), pos(1n))).to.equal(false);
  });

  it('round-trips through decimal strings and rejects garbage', () => {
    const big = 2n ** 63n - 1n;
    expect(parsePosition(big.toString(), '3')).to.deep.equal(pos(big, 3n));
    expect(parsePosition('1.5', '2')).to.equal(undefined);
    expect(parsePosition(null, '2')).to.equal(undefined);
    expect(positionToString(pos(4n, 3n))).to.equal('4/3');
    expect(positionToString(undefined)).to.equal('start');
  });

  it('wakes waiters once the position is reached, times out otherwise', async () => {
    const waiters = new PositionWaiters();
    expect(await waiters.wait(pos(5n), pos(6n), 10)).to.equal(true);
    const reached = waiters.wait(pos(10n), pos(6n), 1000);
    const late = waiters.wait(pos(20n), pos(6n), 20);
    waiters.reached(pos(12n));
    expect(await reached).to.equal(true);
    expect(await late).to.equal(false);
  });

  it('mirrors the server filters on stream name and event type', () => {
    const e = { streamId: 'recipe-r1', type: 'RecipeCreated' };
    expect(matchesFilter(streamNameFilter({ prefixes: ['job-', 'recipe-'] }), e)).to.equal(true);
    expect(matchesFilter(streamNameFilter({ regex: '^job-' }), e)).to.equal(false);
    expect(matchesFilter(eventTypeFilter({ regex: 'Created$' }), e)).to.equal(true);
    expect(matchesFilter(eventTypeFilter({ prefixes: ['Job'] }), e)).to.equal(false);
  });
});
