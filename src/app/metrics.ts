// The scrape probes of a process, by role (docs/operations.md, "Metrics"):
// dependency states in every process with clients; read-model lags where the
// projections run; readers and jobs where the api answers about them. The
// engine and the relay add their own lag probes (they know their positions).
import { hasRole, type Role } from '../config';
import type { HealthCheck } from '../core/health';
import { addScrapeProbe, ageSeconds, metrics } from '../core/metrics';
import type { AppDeps } from '../slice';
import type { ReadModelStatus } from '../../projections/read-model-status';
import { HealthReadModel } from '../health';
import { readerDefinitionsOf } from '../readerdefinitions/kind';
import { readerHealthAt } from '../health/status';
import { jobsReadModel } from '../jobs/context';

export interface ProbeSources {
  readonly roles: readonly Role[];
  readonly deps: AppDeps;
  /** The /healthz checks of the event store, Redis and RabbitMQ. */
  readonly dependencies: Readonly<Record<'eventStore' | 'redis' | 'amqp', HealthCheck>>;
  /** The read models' states, as /healthz reads them (one reading shared by both, src/app/start.ts). */
  readonly readModelStates: () => Promise<Record<string, ReadModelStatus>>;
}

/** Registers the probes; returns their removal (at shutdown). */
export function startMetricsProbes(src: ProbeSources): () => void {
  const { deps } = src;
  const removals = [
    addScrapeProbe(async () => {
      await Promise.all(
        Object.entries(src.dependencies).map(async ([name, check]) => {
          const up = await check().then(
            () => 1,
            () => 0,
          );
          metrics.dependencyUp.set({ dependency: name }, up);
        }),
      );
    }),
  ];
  if (hasRole({ roles: src.roles }, 'projections')) {
    removals.push(
      addScrapeProbe(async () => {
        if (!deps.redis.isReady) return;
        const statuses = await src.readModelStates();
        for (const [name, s] of Object.entries(statuses)) {
          const labels = { read_model: name };
          metrics.projectionLagEvents.set(labels, s.behindEvents);
          metrics.projectionLagSeconds.set(labels, ageSeconds(s.behindSince === undefined ? undefined : new Date(s.behindSince)));
          metrics.projectionReady.set(labels, s.status === 'ready' ? 1 : 0);
        }
      }),
    );
  }
  if (hasRole({ roles: src.roles }, 'api')) {
    const settings = deps.config.health;
    const health = new HealthReadModel(deps.redis, deps.keys);
    removals.push(
      addScrapeProbe(async () => {
        if (!deps.redis.isReady) return;
        const [defs, states, checkins, jobs] = await Promise.all([readerDefinitionsOf(deps.readModel), health.states(), health.lastCheckins(), jobsReadModel(deps).active()]);
        const now = new Date();
        // Reset first: a state no reader is in any more reads 0, not its last count.
        metrics.readers.reset();
        for (const d of defs) {
          const h = readerHealthAt(d.name, states.get(d.name), checkins.get(d.name), now, settings);
          const worst = [h.connectionStatus, h.throughputStatus, h.clockSyncStatus, h.hardwareStatus, h.softwareStatus].map((s) => s.status);
          const status = worst.includes('FAILED') ? 'FAILED' : worst.includes('WARNING') ? 'WARNING' : 'HEALTHY';
          metrics.readers.inc({ state: h.state, health: status, connection: d.connection?.protocol ?? 'AGENT' });
        }
        metrics.jobsRunning.set(jobs.filter((j) => j.status === 'RUNNING').length);
      }),
    );
  }
  return () => removals.forEach((remove) => remove());
}
