// Counters of a run, per reader and in total, for progress lines and the summary.

export interface ReaderCounters {
  checkins: number;
  reportsSent: number;
  reportsAccepted: number;
  reportsRefused: number;
  reportsRetried: number;
  observations: number;
  healthEvents: number;
  featureChanges: number;
  commands: number;
  errors: number;
  state: string;
  jobId: string | null;
}

export const COUNTER_KEYS = ['checkins', 'reportsSent', 'reportsAccepted', 'reportsRefused', 'reportsRetried', 'observations', 'healthEvents', 'featureChanges', 'commands', 'errors'] as const;
export type CounterKey = (typeof COUNTER_KEYS)[number];

export class Stats {
  readonly readers = new Map<string, ReaderCounters>();
  readonly lastErrors: string[] = [];
  readonly startedAt: number;

  constructor(now: number) {
    this.startedAt = now;
  }

  reader(name: string): ReaderCounters {
    let c = this.readers.get(name);
    if (!c) {
      c = { checkins: 0, reportsSent: 0, reportsAccepted: 0, reportsRefused: 0, reportsRetried: 0, observations: 0, healthEvents: 0, featureChanges: 0, commands: 0, errors: 0, state: 'STARTING', jobId: null };
      this.readers.set(name, c);
    }
    return c;
  }

  add(name: string, key: CounterKey, n = 1): void {
    this.reader(name)[key] += n;
  }

  error(name: string, message: string): void {
    this.add(name, 'errors');
    this.lastErrors.push(`${name}: ${message}`);
    if (this.lastErrors.length > 10) this.lastErrors.shift();
  }

  totals(): Record<CounterKey, number> {
    const t = Object.fromEntries(COUNTER_KEYS.map((k) => [k, 0])) as Record<CounterKey, number>;
    for (const c of this.readers.values()) for (const k of COUNTER_KEYS) t[k] += c[k];
    return t;
  }

  snapshot(now: number): { elapsedSeconds: number; readers: number; reading: number; totals: Record<CounterKey, number> } {
    const reading = [...this.readers.values()].filter((c) => c.state === 'RUNNING_JOB').length;
    return { elapsedSeconds: Math.round((now - this.startedAt) / 100) / 10, readers: this.readers.size, reading, totals: this.totals() };
  }
}

export function progressLine(s: ReturnType<Stats['snapshot']>): string {
  const t = s.totals;
  return `[sim ${s.elapsedSeconds.toFixed(0)}s] readers ${s.readers} (reading ${s.reading}) | checkins ${t.checkins} | reports sent ${t.reportsSent} accepted ${t.reportsAccepted} refused ${t.reportsRefused} retried ${t.reportsRetried} | observations ${t.observations} | health ${t.healthEvents} | errors ${t.errors}`;
}
