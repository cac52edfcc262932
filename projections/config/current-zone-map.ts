// Projects the current zone map streams (`currentZoneMap-<facility>`) into the
// hash `<prefix>v1:config:currentZoneMap`: facility -> JSON string of the
// selected zone map name; a cleared facility has no field.
import type { ConfigProjectionPart } from './part';
import { CURRENT_ZONE_MAP_STREAM_PREFIX, currentZoneMapEvents, currentZoneMapEntry } from '../../src/zonemaps';

export const currentZoneMapPart: ConfigProjectionPart = {
  streamPrefix: CURRENT_ZONE_MAP_STREAM_PREFIX,
  codecs: currentZoneMapEvents,
  apply(tx, event, keys) {
    const key = keys.config(currentZoneMapEntry.kind);
    const data = event.data as { facility: string; zoneMapName?: string };
    if (event.type === 'CurrentZoneMapSelected' && data.zoneMapName !== undefined) {
      tx.hSet(key, data.facility, JSON.stringify(data.zoneMapName));
    } else if (event.type === 'CurrentZoneMapCleared') {
      tx.hDel(key, data.facility);
    }
  },
};
