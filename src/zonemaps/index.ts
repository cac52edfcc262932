// What src/zonemaps offers to other slices and to projections; everything else in
// this folder is its own (docs/architecture.md, "Boundaries").
export { currentZoneMapEntry, currentZoneMapOf, currentZoneNames } from './current-readmodel';
export { CURRENT_ZONE_MAP_STREAM_PREFIX, currentZoneMapEvents } from './events';
export { zoneLocator, type ZoneLocator } from './lookup';
export { zoneMapKind } from './kind';
