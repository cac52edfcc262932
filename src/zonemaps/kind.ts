// The zone map resource kind: stream `zoneMap-<name>`, events
// ZoneMapCreated/Replaced/Deleted, read model key `config:zoneMap`.
import { defineResourceKind } from '../core/resource/kind';
import { ZoneMap } from './codec';

export const zoneMapKind = defineResourceKind<ZoneMap>('zoneMap', 'ZoneMap', ZoneMap);
