// What src/settings offers to other slices and to projections; everything else in
// this folder is its own (docs/architecture.md, "Boundaries").
export { SNMP_SETTINGS_NAME, snmpSettingsKind } from './kind';
export { communityOf, SnmpSettings, type TrapTargetConfig, withoutCommunity } from './snmp';
