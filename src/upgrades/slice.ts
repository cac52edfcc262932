// The upgrades slice: /control/v1/upgrades routes, the upgrade list in the
// config projection, and the upgrade runner in the `jobs` role
// (docs/upgrades.md).
import { upgradesPart } from '../../projections/config/upgrades';
import { hasRole } from '../config';
import type { Slice } from '../core/slice';
import { systemClock, type Clock } from '../core/clock';
import { registerUpgradeRoutes } from './routes';
import { startUpgradeRunner } from './runner';
import { loadUpgradeSettings } from './settings';

export function makeUpgradesSlice(opts: { clock?: Clock; env?: NodeJS.ProcessEnv } = {}): Slice {
  return {
    name: 'upgrades',
    projectionParts: [upgradesPart],
    register: (table, deps) => registerUpgradeRoutes(table, deps),
    start(deps, roles) {
      if (!hasRole({ roles }, 'jobs')) return undefined;
      // Read when the process starts the slice, not at import (tests set the environment first).
      const runner = startUpgradeRunner({ deps, logger: deps.logger.child('upgrade-runner'), settings: loadUpgradeSettings(opts.env ?? process.env), clock: opts.clock ?? systemClock });
      return { stop: () => runner.stop() };
    },
  };
}

export const upgradesSlice = makeUpgradesSlice();
