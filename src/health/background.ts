// The health slice's background work in the projections role: the
// responsiveness checker, once the health read model (started with every
// read model, src/app/wiring.ts) is ready.
import type { AppDeps, BackgroundWork } from '../slice';
import { HealthReadModel } from './readmodel';
import { HEALTH_READ_MODEL } from './keys';
import { startResponsivenessChecker } from './checker';
import type { HealthSettings } from './settings';
import { readerDefinitionsOf } from '../readerdefinitions';

export function startHealthBackground(deps: AppDeps, settings: HealthSettings, clock: () => Date = () => new Date()): BackgroundWork {
  const logger = deps.logger.child('health');
  const health = new HealthReadModel(deps.redis, deps.keys);
  return startResponsivenessChecker({
    client: deps.client,
    source: {
      states: () => health.states(),
      lastCheckins: () => health.lastCheckins(),
      definedReaders: async () => new Set((await readerDefinitionsOf(deps.readModel)).map((d) => d.name)),
    },
    settings,
    clock,
    logger: logger.child('checker'),
    ready: deps.readModels.ready(HEALTH_READ_MODEL),
  });
}
