// The items and history read models as a rebuildable read model (projections/rebuild.ts).
import type { RebuildableReadModel } from '../read-model';
import { ITEMS_PROJECTION, ITEMS_READ_MODEL, itemKeys } from './keys';
import { ITEMS_FILTER, startItemsProjection } from './projection';

export const itemsReadModel: RebuildableReadModel = {
  name: ITEMS_READ_MODEL,
  projection: ITEMS_PROJECTION,
  filter: ITEMS_FILTER,
  keyPrefixes: (keys) => [itemKeys(keys).base],
  start: (opts) => startItemsProjection(opts),
};
