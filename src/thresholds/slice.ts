// Thresholds: threshold definitions and their antenna configurations, both
// identified by integer ids the service assigns (id-allocator.ts).
//
// A facility or a reader definition named by a threshold cannot be deleted
// (facilityUsage and readerUsage below). Not covered yet: a threshold named
// by a THRESHOLD recipe's `thresholdIds` can be deleted.
import type { Slice } from '../slice';
import { registerAntennaConfigurationRoutes } from './antenna-routes';
import { conflict } from '../core/http/errors';
import { thresholdKind } from './kind';
import { thresholdsUsingReader } from './usage';
import { registerThresholdRoutes } from './threshold-routes';

export const thresholdsSlice: Slice = {
  name: 'thresholds',
  facilityUsage: async (deps) => ({
    thresholds: (await deps.readModel.list(thresholdKind)).map((t) => ({ id: String(t.id), facility: t.facility })),
  }),
  // A threshold that names the reader would point at nothing.
  readerUsage: async (deps, name) => {
    const using = thresholdsUsingReader(name, await deps.readModel.list(thresholdKind));
    if (using.length === 0) return undefined;
    return conflict(`reader definition ${JSON.stringify(name)} is used by thresholds ${using.map((t) => `${t.id} (${JSON.stringify(t.name)})`).join(', ')}`);
  },
  register(table, deps) {
    registerAntennaConfigurationRoutes(table, deps);
    registerThresholdRoutes(table, deps);
  },
};
