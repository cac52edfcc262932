// Thresholds: threshold definitions and their antenna configurations, both
// identified by integer ids the service assigns (id-allocator.ts).
//
// A facility named by a threshold cannot be deleted (facilityUsage below).
// Not covered yet: a reader definition still named by a threshold can be
// deleted, and so can a threshold named by a THRESHOLD recipe's
// `thresholdIds`.
import type { Slice } from '../slice';
import { registerAntennaConfigurationRoutes } from './antenna-routes';
import { thresholdKind } from './kind';
import { registerThresholdRoutes } from './threshold-routes';

export const thresholdsSlice: Slice = {
  name: 'thresholds',
  facilityUsage: async (deps) => ({
    thresholds: (await deps.readModel.list(thresholdKind)).map((t) => ({ id: String(t.id), facility: t.facility })),
  }),
  register(table, deps) {
    registerAntennaConfigurationRoutes(table, deps);
    registerThresholdRoutes(table, deps);
  },
};
