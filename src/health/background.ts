// The health slice's background work in the projections role: the health
// projection (after the same log-replaced check as the config projection)
// and the responsiveness checker once the projection has caught up.
import type { AppDeps, BackgroundWork } from '../core/slice';
import { startResettableProjection } from '../../projections/resettable';
import { healthReadModel } from '../../projections/health/projection';
import { HealthReadModel } from '../../projections/health/readmodel';
import { startResponsivenessChecker } from './checker';
import type { HealthSettings } from './settings';

export function startHealthBackground(deps: AppDeps, settings: HealthSettings, clock: () => Date = () => new Date()): BackgroundWork {
  const logger = deps.logger.child('health');
  return startResettableProjection({
    deps,
    model: healthReadModel,
    logger,
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
