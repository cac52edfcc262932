import type { Position } from '@eventstore/db-client';

/** Orders `$all` positions (commit first, then prepare, as the server does). */
export function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export const isAfter = (a: Position, b: Position | undefined): boolean =>
  b === undefined || comparePositions(a, b) > 0;

/** Positions are 64-bit: stored and logged as decimal strings, never as JS numbers. */
export const positionToString = (p: Position | undefined): string =>
  p === undefined ? 'start' : `${p.commit.toString()}/${p.prepare.toString()}`;

export function parsePosition(commit: unknown, prepare: unknown): Position | undefined {
  if (typeof commit !== 'string' || typeof prepare !== 'string') return undefined;
  if (!/^\d+$/.test(commit) || !/^\d+$/.test(prepare)) return undefined;
  return { commit: BigInt(commit), prepare: BigInt(prepare) };
}
