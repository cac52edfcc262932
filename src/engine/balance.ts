// Balancing engine partitions among live engine processes (docs/scaling.md,
// "Ownership, hand-over and fencing"). Pure: given the live members (each
// with the partitions it may own and how many it holds, as recorded in
// Redis by ./membership.ts), it decides only who tries to hold what. The
// leases and the fencing stay what keeps the output right, so a decision on
// a slightly stale view can at worst delay a hand-over, never break one.

/** One live engine process as it recorded itself. */
export interface Member {
  readonly holder: string;
  /** Partitions it held when it last recorded itself. */
  readonly holds: number;
  /** Partitions it may own (ENGINE_PARTITION_IDS). */
  readonly owned: readonly number[];
}

/** What one process sees at a claim round: itself (holding `held` now) and the other live members. */
export interface BalanceView {
  readonly me: Member;
  readonly held: readonly number[];
  readonly others: readonly Member[];
}

const mayOwn = (m: Member, partition: number): boolean => m.owned.includes(partition);

/**
 * How many partitions `member` should hold: the partitions it may own spread
 * over the live members that may own any of them (itself included), rounded
 * up. Simple and stable: it changes only when a member comes or goes.
 */
export function fairShare(member: Member, all: readonly Member[]): number {
  const sharing = all.filter((m) => m.holder !== member.holder && m.owned.some((p) => mayOwn(member, p))).length + 1;
  return Math.ceil(new Set(member.owned).size / sharing);
}

/** Every member of the view, `me` with what it holds now. */
const everyone = (view: BalanceView): Member[] => [{ ...view.me, holds: view.held.length }, ...view.others];

/** The share of the view's own process. */
export function shareOf(view: BalanceView): number {
  return fairShare(view.me, everyone(view));
}

/** The other live members below their share that may own `partition`: they take it at their next round. */
function takers(view: BalanceView, partition: number): Member[] {
  const all = everyone(view);
  return view.others.filter((m) => mayOwn(m, partition) && m.holds < fairShare(m, all));
}

/**
 * Whether to try a free partition: while below the share; above it only
 * when no other live member would take it (members whose sets overlap
 * unevenly can have shares that leave a partition to nobody: it is then
 * taken all the same, never left unowned). A process alone takes everything.
 */
export function shouldTake(view: BalanceView, partition: number): boolean {
  if (view.held.length < shareOf(view)) return true;
  return takers(view, partition).length === 0;
}

/**
 * The partition to give up this round, if any: only when holding more than
 * the share and another live member below its share may own it (so it is
 * taken at that member's next round, and never given up to nobody). The
 * highest such partition, one per round.
 */
export function toRelease(view: BalanceView): number | undefined {
  if (view.held.length <= shareOf(view)) return undefined;
  return [...view.held].sort((a, b) => b - a).find((p) => takers(view, p).length > 0);
}
