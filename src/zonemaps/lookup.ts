// Read-side helpers over a stored zone map, for the item engine: which zone a
// location falls in, and the logical zones (same-name zones merged).
import type { ZoneMap } from './codec';
import { boundingBox, pointInPolygon, polygonOf, type Box, type Polygon } from './geometry';
import { EPS } from './segments';

export interface ZonePart {
  /** Position of this zone in `zoneMap.zones`. */
  index: number;
  floor: string | null;
  polygon: Polygon;
}

export interface LogicalZone {
  name: string;
  parts: ZonePart[];
}

/**
 * Zones grouped by name, in order of first appearance: the interface merges
 * same-name zones into one logical zone (e.g. one zone spread over floors).
 */
export function logicalZones(zoneMap: ZoneMap): LogicalZone[] {
  const byName = new Map<string, LogicalZone>();
  zoneMap.zones.forEach((zone, index) => {
    const logical = byName.get(zone.name) ?? { name: zone.name, parts: [] };
    logical.parts.push({ index, floor: zone.floor, polygon: polygonOf(zone.points) });
    byName.set(zone.name, logical);
  });
  return [...byName.values()];
}

export type ZoneLocator = (floor: string | null | undefined, x: number, y: number) => string | undefined;

/**
 * Precomputes the polygons of a zone map once, for an engine that locates many
 * tags. The locator answers the zone name at (x, y) on a floor, or undefined
 * when no zone contains it (the caller reports FACILITY). A floor of
 * undefined or null means the zones without a floor. The boundary counts as
 * inside; on an edge shared by two zones the first zone listed wins, so the
 * answer is deterministic.
 */
export function zoneLocator(zoneMap: ZoneMap): ZoneLocator {
  const shapes: Array<{ name: string; floor: string | null; polygon: Polygon; box: Box }> = zoneMap.zones.map(
    (zone) => {
      const polygon = polygonOf(zone.points);
      return { name: zone.name, floor: zone.floor, polygon, box: boundingBox(polygon) };
    },
  );
  return (floor, x, y) => {
    const level = floor ?? null;
    const p = { x, y };
    const hit = shapes.find(
      (s) =>
        s.floor === level &&
        x >= s.box.minX - EPS &&
        x <= s.box.maxX + EPS &&
        y >= s.box.minY - EPS &&
        y <= s.box.maxY + EPS &&
        pointInPolygon(p, s.polygon),
    );
    return hit?.name;
  };
}

/** One-off form of zoneLocator. */
export const zoneAt = (zoneMap: ZoneMap, floor: string | null | undefined, x: number, y: number): string | undefined =>
  zoneLocator(zoneMap)(floor, x, y);
