// The health slice's background work in the projections role: the health
// projection (after the same log-replaced check as the config projection)
// and the responsiveness checker once the projection has caught up.
import type { AppDeps, BackgroundWork } from '../core/slice';
import type { RunningSubscription } from '../core/subscriptions';
import { resetIfLogWasReplaced } from '../../projections/config/log-reset';
import { startHealthProjection } from '../../projections/health/projection';
import { HEALTH_PROJECTION } from '../../projections/health/keys';
import { HealthReadModel } from '../../projections/health/readmodel';
import { startResponsivenessChecker, type ResponsivenessChecker } from './checker';
import type { HealthSettings } from './settings';

export function startHealthBackground(deps: AppDeps, settings: HealthSettings, clock: () => Date = () => new Date()): BackgroundWork {
  const logger = deps.logger.child('health');
  let sub: RunningSubscription | undefined;
  let checker: ResponsivenessChecker | undefined;
  let stopping = false;
  const started = (async () => {
    await resetIfLogWasReplaced({
      client: deps.client,
      redis: deps.redis,
      keys: deps.keys,
      projection: HEALTH_PROJECTION,
      keyPatterns: [`${deps.keys.base}v1:health:*`],
      logger,
    });
    if (stopping) return;
    sub = startHealthProjection({ client: deps.client, redis: deps.redis, keys: deps.keys, logger: logger.child('projection') });
    checker = startResponsivenessChecker({
      client: deps.client,
      source: new HealthReadModel(deps.redis, deps.keys),
      settings,
      clock,
      logger: logger.child('checker'),
      ready: sub.caughtUp,
    });
  })().catch((err: unknown) => logger.error('health projection did not start', { err }));
  return {
    async stop() {
      stopping = true;
      await started;
      await checker?.stop();
      await sub?.stop();
    },
  };
}
