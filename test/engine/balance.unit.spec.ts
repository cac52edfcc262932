// Balancing engine partitions (src/engine/balance.ts): the fair share, when
// to take a free partition and when to give one up. Pure decisions over what
// the live members recorded (src/engine/membership.ts parses those records).
import { expect } from 'chai';
import { fairShare, shareOf, shouldTake, toRelease, type BalanceView, type Member } from '../../src/engine/balance';
import { parseMember } from '../../src/engine/membership';

const member = (holder: string, owned: number[], holds = 0): Member => ({ holder, holds, owned });
const view = (owned: number[], held: number[], others: Member[]): BalanceView => ({ me: member('me', owned, held.length), held, others });
const all = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

describe('engine partition balance', () => {
  it('fair share: the partitions a member may own over the live members that may own any of them, rounded up', () => {
    const a = member('a', all(2));
    expect(fairShare(a, [a])).to.equal(2);
    expect(fairShare(a, [a, member('b', all(2))])).to.equal(1);
    expect(fairShare(member('a', all(5)), [member('a', all(5)), member('b', all(5))])).to.equal(3);
    // A member that may own none of a's partitions does not share them.
    expect(fairShare(member('a', [0, 1]), [member('a', [0, 1]), member('b', [2, 3])])).to.equal(2);
    // The layout of a narrow process beside a wide one: one each.
    const narrow = member('a', [0]);
    const wide = member('b', [0, 1]);
    expect([fairShare(narrow, [narrow, wide]), fairShare(wide, [narrow, wide])]).to.deep.equal([1, 1]);
    // Counting itself once, whether or not it is among the members given.
    expect(fairShare(a, [member('b', all(2))])).to.equal(1);
  });

  it('alone: takes every partition it may own and gives nothing up (as without balancing)', () => {
    for (const p of all(4)) expect(shouldTake(view(all(4), [], []), p)).to.equal(true);
    expect(shouldTake(view(all(4), [0, 1, 2], []), 3)).to.equal(true);
    expect(toRelease(view(all(4), all(4), []))).to.equal(undefined);
  });

  it('takes free partitions up to its share while another member is below its own', () => {
    const other = member('b', all(2), 0);
    expect(shouldTake(view(all(2), [], [other]), 0)).to.equal(true);
    expect(shouldTake(view(all(2), [0], [other]), 1)).to.equal(false);
    expect(shareOf(view(all(2), [0], [other]))).to.equal(1);
  });

  it('takes a partition above its share when no other live member would (never leaves one to nobody)', () => {
    // b holds its share already.
    expect(shouldTake(view(all(2), [0], [member('b', all(2), 1)]), 1)).to.equal(true);
    // b may not own partition 1.
    expect(shouldTake(view(all(2), [0], [member('b', [0], 0)]), 1)).to.equal(true);
    // Uneven sets: a and b alone may own 1-3, three others only 0; every share is 1, but 1-3 still find owners.
    const narrow = ['c', 'd', 'e'].map((h) => member(h, [0], 0));
    expect(shouldTake(view(all(4), [1], [member('b', all(4), 1), ...narrow]), 3)).to.equal(true);
  });

  it('holding more than its share: gives up the highest partition another member below its share may own, one per round', () => {
    expect(toRelease(view(all(2), [0, 1], [member('b', all(2), 0)]))).to.equal(1);
    expect(toRelease(view(all(4), all(4), [member('b', all(4), 0)]))).to.equal(3);
    expect(toRelease(view(all(4), all(4), [member('b', [0, 1], 0)]))).to.equal(1);
    // Three members of 4 partitions: share 2; a holds 3 and c is below.
    expect(toRelease(view(all(4), [0, 1, 2], [member('b', all(4), 1), member('c', all(4), 0)]))).to.equal(2);
  });

  it('never gives up a partition nobody would take, nor one at or below its share', () => {
    // b holds its share already: a keeps both rather than orphan one.
    expect(toRelease(view(all(2), [0, 1], [member('b', all(2), 1)]))).to.equal(undefined);
    // b is below its share but may own none of what a holds.
    expect(toRelease(view(all(4), [0, 1, 2], [member('b', [3], 0)]))).to.equal(undefined);
    expect(toRelease(view(all(2), [1], [member('b', all(2), 0)]))).to.equal(undefined);
  });

  it('after a hand-over nobody takes it back: the giver at its share leaves it to the member below', () => {
    const b = member('b', all(2), 0);
    expect(toRelease(view(all(2), [0, 1], [b]))).to.equal(1);
    expect(shouldTake(view(all(2), [0], [b]), 1)).to.equal(false);
    expect(toRelease(view(all(2), [0], [b]))).to.equal(undefined);
    // b, below its share, takes it.
    expect(shouldTake({ me: b, held: [], others: [member('me', all(2), 1)] }, 1)).to.equal(true);
  });

  it('reads a member record, and leaves out one it cannot read', () => {
    expect(parseMember('h', '1764259200000 {"holds":1,"owned":[0,1]}')).to.deep.equal({ holder: 'h', holds: 1, owned: [0, 1] });
    expect(parseMember('h', '1764259200000 {"holds":"1","owned":[0]}')).to.equal(undefined);
    expect(parseMember('h', '1764259200000 {"holds":1,"owned":["0"]}')).to.equal(undefined);
    expect(parseMember('h', '1764259200000 not json')).to.equal(undefined);
  });
});
