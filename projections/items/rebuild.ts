// The items and history read models as a rebuildable read model (projections/rebuild.ts).
import type { RebuildableReadModel } from '../read-model';
import { ITEMS_PROJECTION, ITEMS_READ_MODEL, itemKeys } from '../../src/items';
import { startItemsProjection } from './projection';
import { ENGINE_FILTER } from '../engine-filter';

export const itemsReadModel: RebuildableReadModel = {
  name: ITEMS_READ_MODEL,
  projection: ITEMS_PROJECTION,
  filter: ENGINE_FILTER,
  keyPrefixes: (keys) => [itemKeys(keys).base],
  start: (opts) => startItemsProjection(opts),
};
