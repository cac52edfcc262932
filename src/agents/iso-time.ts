// ISO timestamps <-> epoch ms for the thousands of firstSeen/lastSeen of a
// tag report. Date.parse, the IsoTimestamp regex and toISOString cost about
// as much per observation as everything else the agent API does with it
// (docs/benchmarks.md, "Pipeline"). The times of one report fall within a few
// seconds, so both directions remember the last seconds they met and handle
// the canonical `YYYY-MM-DDTHH:MM:SS.mmmZ` form within it with a few
// character operations; any other form goes the general way. Each function
// returned keeps its own memory: use one per report.
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

const pad3 = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n));

/** The UTC ISO string of epoch ms (as toISOString). */
export function isoWriter(): (ms: number) => string {
  const seconds: number[] = [];
  const heads: string[] = [];
  let next = 0;
  return (ms) => {
    const s = Math.floor(ms / 1000);
    let i = seconds.indexOf(s);
    if (i < 0) {
      const iso = new Date(s * 1000).toISOString();
      // Years beyond 9999 or before 0 have another length: no shortcut for them.
      if (iso.length !== 24) return new Date(ms).toISOString();
      i = next;
      seconds[i] = s;
      heads[i] = iso.slice(0, 20);
      next = (next + 1) % SECONDS;
    }
    return `${heads[i]!}${pad3(ms - s * 1000)}Z`;
  };
}
