// The upgrades slice: /control/v1/upgrades routes, the upgrade list in the
// config projection, and the upgrade runner in the `jobs` role
// (docs/upgrades.md).
import { hasRole } from '../config';
import type { Slice } from '../slice';
import { systemClock, type Clock } from '../core/clock';
import { registerUpgradeRoutes } from './routes';
import { startUpgradeRunner } from './runner';

export function makeUpgradesSlice(opts: { clock?: Clock } = {}): Slice {
  return {
    name: 'upgrades',
    register: (table, deps) => registerUpgradeRoutes(table, deps),
    start(deps, roles) {
      if (!hasRole({ roles }, 'jobs')) return undefined;
      const runner = startUpgradeRunner({ deps, logger: deps.logger.child('upgrade-runner'), settings: deps.config.upgrades, clock: opts.clock ?? systemClock });
      return { stop: () => runner.stop() };
    },
  };
}

export const upgradesSlice = makeUpgradesSlice();
