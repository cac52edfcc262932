// The process's Prometheus metrics (docs/operations.md, "Metrics"): one
// registry, the metrics every role counts into, and the scrape probes that
// read the values worth measuring only when Prometheus asks (lags,
// connection states). Counters are bumped once per report or batch, never
// per observation: the ingestion path stays as cheap as before.
// Labels hold bounded names only (reader names, reasons, route templates,
// queue kinds), never a raw path, an id or a token.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export const metricsRegistry = new Registry();

let defaultsCollected = false;

/** Labels every metric with the roles of this process and starts the process metrics (CPU, memory, event loop, GC). */
export function startProcessMetrics(roles: readonly string[]): void {
  metricsRegistry.setDefaultLabels({ roles: roles.join(',') });
  // Once per process: several apps in one test process share the registry.
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

const registers = [metricsRegistry];

export const metrics = {
  reportsAccepted: new Counter({ name: 'tagtrail_tag_reports_accepted_total', help: 'Tag reports accepted from readers', labelNames: ['reader'], registers }),
  observationsAccepted: new Counter({ name: 'tagtrail_observations_accepted_total', help: 'Observations (tag reads) in accepted tag reports', labelNames: ['reader'], registers }),
  reportsRefused: new Counter({ name: 'tagtrail_tag_reports_refused_total', help: 'Tag reports refused, by reason', labelNames: ['reader', 'reason'], registers }),
  observationsRefused: new Counter({ name: 'tagtrail_observations_refused_total', help: 'Observations in refused tag reports, by reason', labelNames: ['reader', 'reason'], registers }),
  readerReadsDropped: new Counter({ name: 'tagtrail_reader_reads_dropped_total', help: 'Tag reads a reader connection (LLRP, IoT) received and never stored, by reason (the reader no longer in the job, an antenna id out of range, left unsent at shutdown)', labelNames: ['reader', 'reason'], registers }),
  itemsChanged: new Counter({ name: 'tagtrail_items_changed_total', help: 'Item changes appended by the item engine', registers }),
  reportToItemSeconds: new Histogram({
    name: 'tagtrail_report_to_item_seconds',
    help: 'From a tag report stored to the item changes it caused appended (oldest report of each engine append)',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers,
  }),
  engineLagEvents: new Gauge({ name: 'tagtrail_engine_lag_events', help: 'Input events whose item changes the item engine has not appended yet (counted up to a bound)', registers }),
  engineLagSeconds: new Gauge({ name: 'tagtrail_engine_lag_seconds', help: 'Age of the oldest input event the item engine has not handled (0 when caught up)', registers }),
  enginePartitionOwned: new Gauge({ name: 'tagtrail_engine_partition_owned', help: '1 while this process runs the item engine partition (holds its lease), 0 once it gave it up', labelNames: ['partition'], registers }),
  projectionLagEvents: new Gauge({ name: 'tagtrail_projection_lag_events', help: 'Events a read model has not applied yet (counted up to a bound)', labelNames: ['read_model'], registers }),
  projectionLagSeconds: new Gauge({ name: 'tagtrail_projection_lag_seconds', help: 'Age of the oldest event a read model has not applied (0 when caught up)', labelNames: ['read_model'], registers }),
  projectionReady: new Gauge({ name: 'tagtrail_projection_ready', help: '1 when the read model is served, 0 while it rebuilds or is lost', labelNames: ['read_model'], registers }),
  relayLagEvents: new Gauge({ name: 'tagtrail_relay_lag_events', help: 'Events the relay has not had confirmed yet (counted up to a bound)', registers }),
  relayLagSeconds: new Gauge({ name: 'tagtrail_relay_lag_seconds', help: 'Age of the oldest event the relay has not had confirmed (0 when caught up)', registers }),
  relayPublished: new Counter({ name: 'tagtrail_relay_messages_published_total', help: 'Messages the relay published, by queue kind (items, threshold, health); resends count again', labelNames: ['kind'], registers }),
  relayConfirmed: new Counter({ name: 'tagtrail_relay_messages_confirmed_total', help: 'Published messages the broker confirmed', registers }),
  relayUnconfirmed: new Gauge({ name: 'tagtrail_relay_confirms_outstanding', help: 'Published messages waiting for the broker confirm', registers }),
  relayRetries: new Counter({ name: 'tagtrail_relay_retries_total', help: 'Times the relay resent from its last confirmed checkpoint (a batch was not confirmed)', registers }),
  // EPCIS capture, by repository name (a configured name, never its URL or credentials).
  epcisDocumentsSent: new Counter({ name: 'tagtrail_epcis_capture_documents_total', help: 'EPCISDocuments a capture repository acknowledged (2xx)', labelNames: ['repository'], registers }),
  epcisEventsSent: new Counter({ name: 'tagtrail_epcis_capture_events_total', help: 'EPCIS events in the documents a capture repository acknowledged', labelNames: ['repository'], registers }),
  epcisFailures: new Counter({ name: 'tagtrail_epcis_capture_failures_total', help: 'Capture requests not acknowledged, by reason (http_<status>, or network for no answer)', labelNames: ['repository', 'reason'], registers }),
  epcisRetries: new Counter({ name: 'tagtrail_epcis_capture_retries_total', help: 'Capture requests sent again after a failure', labelNames: ['repository'], registers }),
  epcisLagEvents: new Gauge({ name: 'tagtrail_epcis_capture_lag_events', help: 'Engine events after the capture checkpoint of a repository (counted up to a bound); reported by the process pushing to it', labelNames: ['repository'], registers }),
  epcisLagSeconds: new Gauge({ name: 'tagtrail_epcis_capture_lag_seconds', help: 'Age of the oldest engine event a repository has not acknowledged (0 when caught up)', labelNames: ['repository'], registers }),
  httpRequests: new Histogram({
    name: 'tagtrail_http_request_duration_seconds',
    help: 'HTTP requests by route template and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  }),
  appendSeconds: new Histogram({
    name: 'tagtrail_eventstore_append_duration_seconds',
    help: 'Event store append latency',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  }),
  dependencyUp: new Gauge({ name: 'tagtrail_dependency_up', help: '1 when the dependency answers (event store, redis, amqp)', labelNames: ['dependency'], registers }),
  readers: new Gauge({ name: 'tagtrail_readers', help: 'Defined readers by state (NOT_RESPONDING, IDLE, ...), worst health status (HEALTHY, WARNING, FAILED) and connection kind (AGENT, LLRP, IOT)', labelNames: ['state', 'health', 'connection'], registers }),
  jobsRunning: new Gauge({ name: 'tagtrail_jobs_running', help: 'Jobs in state RUNNING', registers }),
};

/** Sets the values read at scrape time; a probe that fails leaves its gauges as they were. */
export type ScrapeProbe = () => Promise<void>;

const probes = new Set<ScrapeProbe>();

/** Adds a probe run before each scrape; returns its removal (for shutdown). */
export function addScrapeProbe(probe: ScrapeProbe): () => void {
  probes.add(probe);
  return () => probes.delete(probe);
}

/** A scrape never waits longer than this on a slow dependency. */
const PROBE_TIMEOUT_MS = 2000;

/** The text exposition of every metric, after the probes ran (each bounded by a timeout). */
export async function scrapeMetrics(): Promise<{ contentType: string; body: string }> {
  await Promise.allSettled(
    [...probes].map((probe) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, PROBE_TIMEOUT_MS);
        timer.unref();
      });
      return Promise.race([probe(), timeout]).finally(() => clearTimeout(timer));
    }),
  );
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}

/** Seconds since an event was created, 0 when there is none. */
export const ageSeconds = (created: Date | undefined, now = Date.now()): number => (created === undefined ? 0 : Math.max(0, (now - created.getTime()) / 1000));
