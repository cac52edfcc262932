// What src/items offers to other slices and to projections; everything else in
// this folder is its own (docs/architecture.md, "Boundaries").
export { formatEpc } from './epc';
export { type HistoryQuery, type ItemsQuery } from './query';
export { type TransitionsQuery } from './transitions-query';
export { normalizeEpc } from './epc';
export { QueryReader, type RawQuery } from './query';
