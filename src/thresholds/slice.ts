// Thresholds: threshold definitions and their antenna configurations, both
// identified by integer ids the service assigns (id-allocator.ts).
//
// Not covered here (left for the slices that own them): a facility or a
// reader definition still named by a threshold can be deleted (FacilityUsage
// has no thresholds entry), and a threshold named by a THRESHOLD recipe's
// `thresholdIds` can be deleted.
import { resourcePart } from '../../projections/config/projection';
import type { Slice } from '../core/slice';
import { registerAntennaConfigurationRoutes } from './antenna-routes';
import { antennaConfigurationKind, thresholdKind } from './kind';
import { registerThresholdRoutes } from './threshold-routes';

export const thresholdsSlice: Slice = {
  name: 'thresholds',
  projectionParts: [resourcePart(antennaConfigurationKind), resourcePart(thresholdKind)],
  register(table, deps) {
    registerAntennaConfigurationRoutes(table, deps);
    registerThresholdRoutes(table, deps);
  },
};
