// Starts a projection the way every read model starts: first drop it if its
// checkpoint lies past the end of the log (the log was replaced), then
// subscribe; stoppable at any point, also while the check still runs.
import type { AppDeps, BackgroundWork } from '../src/core/slice';
import type { Logger } from '../src/core/logger';
import type { RunningSubscription } from '../src/core/subscriptions';
import { resetIfLogWasReplaced } from './config/log-reset';

export interface ResettableProjection {
  readonly deps: AppDeps;
  readonly projection: string;
  /** Every key pattern the projection writes (dropped with its checkpoint on a reset). */
  readonly keyPatterns: readonly string[];
  readonly logger: Logger;
  start(): RunningSubscription;
  /** Further work that needs the running subscription (e.g. a checker); stopped first. */
  then?(sub: RunningSubscription): BackgroundWork;
}

export function startResettableProjection(p: ResettableProjection): BackgroundWork {
  let sub: RunningSubscription | undefined;
  let extra: BackgroundWork | undefined;
  let stopping = false;
  const started = (async () => {
    await resetIfLogWasReplaced({
      client: p.deps.client,
      redis: p.deps.redis,
      keys: p.deps.keys,
      projection: p.projection,
      keyPatterns: p.keyPatterns,
      logger: p.logger,
    });
    if (stopping) return;
    sub = p.start();
    extra = p.then?.(sub);
  })().catch((err: unknown) => p.logger.error('projection did not start', { projection: p.projection, err }));
  return {
    async stop() {
      stopping = true;
      await started;
      await extra?.stop();
      await sub?.stop();
    },
  };
}
