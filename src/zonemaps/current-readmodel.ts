// Reading the current zone map selections from the config read model.
// Hash `<prefix>v1:config:currentZoneMap`: facility name -> JSON string of the
// selected zone map's name (JSON like every other config hash, so the
// generic ConfigReadModel reads it). Written by currentZoneMapPart
// (projections/config/current-zone-map.ts) only.
import * as t from 'io-ts';
import type { ResourceKind } from '../core/resource/kind';
import type { ConfigReadModel } from '../core/resource/readmodel';
import type { ZoneMap } from './codec';
import type { CurrentZoneMaps } from './current';
import { zoneMapKind } from './kind';

/**
 * The selection hash seen as a read-model "kind" whose documents are zone map
 * names. Not a named resource: it has no create/replace/delete events and no
 * resourcePart; only the key and the codec are used.
 */
export const currentZoneMapEntry: ResourceKind<string> = { kind: 'currentZoneMap', label: 'CurrentZoneMap', codec: t.string };

/** facility -> name of its current zone map, for every facility that has one. */
export async function currentZoneMaps(readModel: ConfigReadModel): Promise<CurrentZoneMaps> {
  return readModel.map(currentZoneMapEntry);
}

/**
 * The current zone map document of a facility, or undefined when none is
 * selected. A selection whose zone map is gone or now belongs to another
 * facility (only possible after a race between a select and a delete or a
 * replace, which the write side otherwise refuses) counts as none, so the
 * item engine never locates tags with a map of another facility.
 */
export async function currentZoneMapOf(readModel: ConfigReadModel, facility: string): Promise<ZoneMap | undefined> {
  const name = await readModel.get(currentZoneMapEntry, facility);
  if (name === undefined) return undefined;
  const zoneMap = await readModel.get(zoneMapKind, name);
  return zoneMap !== undefined && zoneMap.facility === facility ? zoneMap : undefined;
}

/** Each facility's current zone map: its name and the names of its zones (facilities without one are absent). */
export async function currentZoneNames(readModel: ConfigReadModel): Promise<Map<string, { name: string; zones: Set<string> }>> {
  const [current, maps] = await Promise.all([currentZoneMaps(readModel), readModel.map(zoneMapKind)]);
  const out = new Map<string, { name: string; zones: Set<string> }>();
  for (const [facility, name] of current) {
    const zoneMap = maps.get(name);
    // Same rule as currentZoneMapOf: a selection left pointing across facilities counts as none.
    if (zoneMap !== undefined && zoneMap.facility === facility) out.set(facility, { name, zones: new Set(zoneMap.zones.map((z) => z.name)) });
  }
  return out;
}
