// ISO timestamps -> epoch ms for the thousands of firstSeen/lastSeen of a
// tag report (the other direction is isoTime, src/core/iso-time.ts).
// Date.parse and the IsoTimestamp regex cost about as much per observation as
// everything else the agent API does with it (docs/benchmarks.md,
// "Pipeline"). The times of one report fall within a few seconds, so the
// reader remembers the last seconds it met and handles the canonical
// `YYYY-MM-DDTHH:MM:SS.mmmZ` form within them with a few character
// operations; any other form goes the general way. Each reader returned keeps
// its own memory: use one per report.
import { IsoTimestamp } from '../core/codecs';

const ZERO = 48;
const digit = (s: string, i: number): number => s.charCodeAt(i) - ZERO;
const isDigit = (s: string, i: number): boolean => {
  const d = s.charCodeAt(i) - ZERO;
  return d >= 0 && d <= 9;
};

/** How many seconds each function remembers (firstSeen and lastSeen of one observation are often in different seconds). */
const SECONDS = 8;

/** Epoch ms of `u` when IsoTimestamp accepts it, else NaN. */
export function isoMsReader(): (u: unknown) => number {
  const heads: string[] = [];
  const headMs: number[] = [];
  let next = 0;
  return (u) => {
    if (typeof u !== 'string') return NaN;
    if (u.length === 24 && u.charCodeAt(19) === 46 /* . */ && u.charCodeAt(23) === 90 /* Z */ && isDigit(u, 20) && isDigit(u, 21) && isDigit(u, 22)) {
      const ms = digit(u, 20) * 100 + digit(u, 21) * 10 + digit(u, 22);
      for (let i = 0; i < heads.length; i++) if (u.startsWith(heads[i]!)) return headMs[i]! + ms;
      const head = u.slice(0, 19);
      const full = `${head}.000Z`;
      if (!IsoTimestamp.is(full)) return NaN;
      heads[next] = head;
      headMs[next] = Date.parse(full);
      const at = next;
      next = (next + 1) % SECONDS;
      return headMs[at]! + ms;
    }
    return IsoTimestamp.is(u) ? Date.parse(u) : NaN;
  };
}
