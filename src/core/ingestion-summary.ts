// One info line per minute on what the readers delivered and what it changed,
// in place of a line per reader report: an operator sees the flow of data at
// a glance, and the request lines stay at debug. Counters are per process:
// with the roles split, the api process counts reports and the engine
// process counts item changes; each logs its own part. The same calls
// count the Prometheus metrics (./metrics.ts), so both always agree.
import type { Logger } from './logger';
import { metrics } from './metrics';

export interface IngestionCounts {
  /** Tag reports accepted from readers (duplicates and refusals excluded). */
  reports: number;
  /** Observations (tag reads) in those reports. */
  observations: number;
  /** Tag reports refused (no job, wrong job, ...). */
  refusedReports: number;
  /** Item changes appended by the item engine. */
  itemsChanged: number;
}

const empty = (): IngestionCounts => ({ reports: 0, observations: 0, refusedReports: 0, itemsChanged: 0 });

let counts = empty();

export const ingestion = {
  reportAccepted(reader: string, observations: number): void {
    counts.reports += 1;
    counts.observations += observations;
    metrics.reportsAccepted.inc({ reader });
    metrics.observationsAccepted.inc({ reader }, observations);
  },
  reportRefused(reader: string, reason: string, observations: number): void {
    counts.refusedReports += 1;
    metrics.reportsRefused.inc({ reader, reason });
    metrics.observationsRefused.inc({ reader, reason }, observations);
  },
  itemsChanged(n: number): void {
    counts.itemsChanged += n;
    metrics.itemsChanged.inc(n);
  },
  /** The counts since the last call, and zero from now on. */
  take(): IngestionCounts {
    const taken = counts;
    counts = empty();
    return taken;
  },
};

/**
 * Logs `ingestion` with the counts of each period that saw any; quiet
 * periods write nothing. Returns the stop function (which logs what the last,
 * partial period counted).
 */
export function startIngestionSummary(logger: Logger, everyMs = 60_000): () => void {
  ingestion.take();
  let since = Date.now();
  const flush = (): void => {
    const now = Date.now();
    const c = ingestion.take();
    if (c.reports + c.refusedReports + c.itemsChanged > 0) logger.info('ingestion', { ...c, periodMs: now - since });
    since = now;
  };
  const timer = setInterval(flush, everyMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    flush();
  };
}
