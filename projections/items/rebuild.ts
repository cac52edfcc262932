// The items and history read models as a rebuildable read model (projections/rebuild.ts).
import type { RebuildableReadModel } from '../read-model';
import { ITEMS_PROJECTION, itemKeys } from './keys';
import { startItemsProjection } from './projection';

export const itemsReadModel: RebuildableReadModel = {
  name: 'items',
  projection: ITEMS_PROJECTION,
  keyPrefixes: (keys) => [itemKeys(keys).base],
  start: (opts) => startItemsProjection(opts),
};
