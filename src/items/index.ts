// What src/items offers to other slices and to projections; everything else in
// this folder is its own (docs/architecture.md, "Boundaries").
export { formatEpc } from './epc';
export { type HistoryQuery, type ItemsQuery } from './query';
export { type TransitionsQuery } from './transitions-query';
export { normalizeEpc } from './epc';
export { QueryReader, type RawQuery } from './query';
export { TransitionsReadModel, matchesThreshold } from './transitions-readmodel';
export { transitionRecordOf, iterationRecordOf } from './transition-model';
export { historyRecordOf, recordToFacility, type ItemEvent, indexKeysOf, type StoredHistory, changeOrder, commitOrder, itemAfter, keptInHistory, decodeStoredHistory } from './model';
export { type StoredItem, decodeStoredItem, encodeStoredItem } from './stored-item';
export { MAX_ITERATIONS, TRANSITIONS_PROJECTION, TRANSITIONS_READ_MODEL, transitionKeys, transitionRecordId } from './transition-keys';
export { type ItemKeys, ITEMS_PROJECTION, ITEMS_READ_MODEL, itemKeys, historyId } from './keys';
export { ItemsReadModel } from './readmodel';
