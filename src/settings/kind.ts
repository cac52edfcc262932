// The SNMP settings as a one-document resource: stream `settings-SNMP`,
// events SnmpSettingsCreated/Replaced/Deleted `{name: "SNMP", resource}`,
// read model hash `config:settings` field `SNMP`. The `settings` hash and
// stream category are meant for other service-wide settings documents too,
// each under its own name and label; read them with get, not list.
import { defineResourceKind } from '../core/resource/kind';
import { SnmpSettings } from './snmp';

export const SNMP_SETTINGS_NAME = 'SNMP';
export const snmpSettingsKind = defineResourceKind<SnmpSettings>('settings', 'SnmpSettings', SnmpSettings);
