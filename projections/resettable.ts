// Starts a read model the way every read model starts: first drop it if its
// checkpoint lies past the end of the log (the log was replaced), then
// subscribe; stoppable at any point, also while the check still runs.
import type { AppDeps, BackgroundWork } from '../src/core/slice';
import type { Logger } from '../src/core/logger';
import type { RunningSubscription } from '../src/core/subscriptions';
import { resetIfLogWasReplaced } from './config/log-reset';
import { keyPatterns, type RebuildableReadModel } from './read-model';

export interface ResettableProjection {
  readonly deps: AppDeps;
  readonly model: RebuildableReadModel;
  readonly logger: Logger;
  /** Further work that needs the running subscription (e.g. a checker); stopped first. */
  then?(sub: RunningSubscription): BackgroundWork;
}

export function startResettableProjection(p: ResettableProjection): BackgroundWork {
  const { deps, model } = p;
  let sub: RunningSubscription | undefined;
  let extra: BackgroundWork | undefined;
  let stopping = false;
  const started = (async () => {
    await resetIfLogWasReplaced({
      client: deps.client,
      redis: deps.redis,
      keys: deps.keys,
      projection: model.projection,
      keyPatterns: keyPatterns(model, deps.keys),
      logger: p.logger,
    });
    if (stopping) return;
    sub = model.start({ client: deps.client, redis: deps.redis, keys: deps.keys, logger: p.logger.child('projection') });
    extra = p.then?.(sub);
  })().catch((err: unknown) => p.logger.error('projection did not start', { projection: model.projection, err }));
  return {
    async stop() {
      stopping = true;
      await started;
      await extra?.stop();
      await sub?.stop();
    },
  };
}
