// The health slice's background work in the projections role: the
// responsiveness checker, once the health read model (started with every
// read model, src/app/wiring.ts) is ready.
import type { AppDeps, BackgroundWork } from '../slice';
import { HealthReadModel } from './readmodel';
import { HEALTH_READ_MODEL } from './keys';
import { startResponsivenessChecker } from './checker';
import type { HealthSettings } from './settings';

export function startHealthBackground(deps: AppDeps, settings: HealthSettings, clock: () => Date = () => new Date()): BackgroundWork {
  const logger = deps.logger.child('health');
  return startResponsivenessChecker({
    client: deps.client,
    source: new HealthReadModel(deps.redis, deps.keys),
    settings,
    clock,
    logger: logger.child('checker'),
    ready: deps.readModels.ready(HEALTH_READ_MODEL),
  });
}
