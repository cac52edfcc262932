// The rules a zone map must satisfy before it is stored: its facility exists
// (or is implied), every zone is a proper polygon, and no two zones on the
// same floor share any area. Same-name zones form one logical zone but are
// still separate polygons, so they must not overlap either.
import * as E from 'fp-ts/Either';
import { badRequest, type ApiError, type FieldError } from '../core/http/errors';
import { resolveFacility } from '../facilities';
import type { ZoneMap, ZoneMapInput, Zone } from './codec';
import { boundingBox, boxesApart, polygonOf, polygonProblem, type Box, type Polygon } from './geometry';
import { polygonsOverlap } from './overlap';

/**
 * Zone names with a meaning of their own in item data: FACILITY is "present,
 * outside every zone" and ABSENT is "not seen". A user zone with either name
 * would make item locations and history ambiguous, so they are refused.
 */
export const RESERVED_ZONE_NAMES: readonly string[] = ['FACILITY', 'ABSENT'];

/** The stored form of a decoded body: z defaults to 0, floor to null. */
function toStoredZones(input: ZoneMapInput): Zone[] {
  return input.zones.map((zone) => ({
    name: zone.name,
    floor: zone.floor ?? null,
    points: zone.points.map((p) => ({ x: p.x, y: p.y, z: p.z ?? 0 })),
  }));
}

/** The problems of each zone on its own, and the indices of the zones whose outline is not valid. */
function zoneProblems(zones: readonly Zone[], where: string): { errors: FieldError[]; badOutlines: Set<number> } {
  const errors: FieldError[] = [];
  const badOutlines = new Set<number>();
  zones.forEach((zone, i) => {
    if (RESERVED_ZONE_NAMES.includes(zone.name)) {
      errors.push({ path: `${where}.zones.${i}.name`, reason: `${JSON.stringify(zone.name)} is a reserved zone name` });
    }
    const path = `${where}.zones.${i}.points`;
    const problem = zone.points.length < 2 ? 'needs at least 2 points (2 give a rectangle, more a polygon)' : polygonProblem(polygonOf(zone.points));
    if (problem === undefined) return;
    badOutlines.add(i);
    errors.push({ path, reason: zone.points.length < 2 ? problem : `not a valid zone outline: ${problem}` });
  });
  return { errors, badOutlines };
}

interface Shape {
  index: number;
  zone: Zone;
  polygon: Polygon;
  box: Box;
}

/** Every overlapping pair of zones on the same floor, in map order; only between valid outlines does an overlap mean anything. */
function overlappingPairs(zones: readonly Zone[], badOutlines: ReadonlySet<number>): Array<[Shape, Shape]> {
  // A missing floor is one level of its own: such zones are compared with each
  // other but never with zones that name a floor.
  const byFloor = new Map<string | null, Shape[]>();
  zones.forEach((zone, index) => {
    if (badOutlines.has(index)) return;
    const polygon = polygonOf(zone.points);
    const shapes = byFloor.get(zone.floor) ?? [];
    shapes.push({ index, zone, polygon, box: boundingBox(polygon) });
    byFloor.set(zone.floor, shapes);
  });
  const pairs: Array<[Shape, Shape]> = [];
  for (const shapes of byFloor.values()) {
    shapes.forEach((a, i) => {
      for (const b of shapes.slice(i + 1)) {
        if (!boxesApart(a.box, b.box) && polygonsOverlap(a.polygon, b.polygon)) pairs.push([a, b]);
      }
    });
  }
  return pairs.sort(([a1, b1], [a2, b2]) => a1.index - a2.index || b1.index - b2.index);
}

const zoneName = (s: Shape): string => JSON.stringify(s.zone.name);

function overlapErrors(pairs: ReadonlyArray<[Shape, Shape]>, where: string): FieldError[] {
  const path = (s: Shape): string => `${where}.zones.${s.index}`;
  return pairs.flatMap(([a, b]) => [
    { path: path(a), reason: `overlaps zone ${zoneName(b)} (${path(b)})` },
    { path: path(b), reason: `overlaps zone ${zoneName(a)} (${path(a)})` },
  ]);
}

/**
 * Checks a decoded zone map body and returns its stored form. All failures
 * are 400s whose `errors[]` paths start at `where`: an omitted facility that
 * cannot be implied, an unknown facility, reserved zone names, zones with
 * fewer than 2 points or a degenerate or self-crossing outline, and
 * overlapping zones (message `zones "A" and "B" overlap`, one error per zone).
 */
export function validateZoneMap(
  input: ZoneMapInput,
  facilityNames: readonly string[],
  where = 'body',
): E.Either<ApiError, ZoneMap> {
  const facility = resolveFacility(input.facility, facilityNames, `${where}.facility`);
  const zones = toStoredZones(input);
  const { errors: problems, badOutlines } = zoneProblems(zones, where);
  const pairs = overlappingPairs(zones, badOutlines);
  // Every problem in one answer, so a client fixes its body in one round.
  const errors = [...(E.isLeft(facility) ? facility.left.errors : []), ...problems, ...overlapErrors(pairs, where)];
  if (E.isLeft(facility)) return E.left(badRequest(facility.left.message, errors));
  const first = problems[0];
  if (first !== undefined) return E.left(badRequest(`Invalid zone map: ${first.path} ${first.reason}`, errors));
  if (pairs.length > 0) return E.left(badRequest(pairs.map(([a, b]) => `zones ${zoneName(a)} and ${zoneName(b)} overlap`).join('; '), errors));
  return E.right({ name: input.name, facility: facility.right, zones });
}
