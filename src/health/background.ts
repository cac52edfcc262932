// The health slice's background work in the projections role: the health
// projection (after the same log-replaced check as the config projection)
// and the responsiveness checker once the projection has caught up.
import type { AppDeps, BackgroundWork } from '../core/slice';
import { startResettableProjection } from '../../projections/resettable';
import { startHealthProjection } from '../../projections/health/projection';
import { HEALTH_PROJECTION } from '../../projections/health/keys';
import { HealthReadModel } from '../../projections/health/readmodel';
import { startResponsivenessChecker } from './checker';
import type { HealthSettings } from './settings';

export function startHealthBackground(deps: AppDeps, settings: HealthSettings, clock: () => Date = () => new Date()): BackgroundWork {
  const logger = deps.logger.child('health');
  return startResettableProjection({
    deps,
    projection: HEALTH_PROJECTION,
    keyPatterns: [`${deps.keys.base}v1:health:*`],
    logger,
    start: () => startHealthProjection({ client: deps.client, redis: deps.redis, keys: deps.keys, logger: logger.child('projection') }),
    then: (sub) =>
      startResponsivenessChecker({
        client: deps.client,
        source: new HealthReadModel(deps.redis, deps.keys),
        settings,
        clock,
        logger: logger.child('checker'),
        ready: sub.caughtUp,
      }),
  });
}
