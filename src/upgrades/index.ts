// What src/upgrades offers to other slices and to projections; everything else in
// this folder is its own (docs/architecture.md, "Boundaries").
export { UPGRADE_STREAM_PREFIX, upgradeEvents, type UpgradeEvent } from './events';
export { activeUpgradeKind, upgradeListKind, type ActiveUpgrade, type UpgradeListEntry } from './listing';
