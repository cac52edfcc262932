// CPU time of processes on this machine (Linux /proc), so a benchmark can say
// where the cores went during a phase, not only how long it took.
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** user + system CPU ms of `pid` so far, or NaN once it is gone or not readable. */
export function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces, so split after its closing parenthesis).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** The first process whose command name is `comm` (e.g. RabbitMQ's `beam.smp`), if any. */
export function pidOf(comm: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === comm) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

/** CPU ms each named process used between `start()` and the call of the function it returns. */
export function cpuMeter(pids: Readonly<Record<string, number | undefined>>): { start(): () => Record<string, number> } {
  return {
    start() {
      const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, pid === undefined ? NaN : cpuMsOf(pid)]));
      return () => Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, pid === undefined ? NaN : cpuMsOf(pid) - (before[name] ?? NaN)]));
    },
  };
}
