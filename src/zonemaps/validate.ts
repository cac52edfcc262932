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

function zoneProblems(zones: readonly Zone[], where: string): FieldError[] {
  const errors: FieldError[] = [];
  zones.forEach((zone, i) => {
    if (RESERVED_ZONE_NAMES.includes(zone.name)) {
      errors.push({ path: `${where}.zones.${i}.name`, reason: `${JSON.stringify(zone.name)} is a reserved zone name` });
    }
    const path = `${where}.zones.${i}.points`;
    if (zone.points.length < 2) {
      errors.push({ path, reason: 'needs at least 2 points (2 give a rectangle, more a polygon)' });
      return;
    }
    const problem = polygonProblem(polygonOf(zone.points));
    if (problem !== undefined) errors.push({ path, reason: `not a valid zone outline: ${problem}` });
  });
  return errors;
}

interface Shape {
  index: number;
  zone: Zone;
  polygon: Polygon;
  box: Box;
}

/** Every overlapping pair of zones on the same floor, in map order. */
function overlappingPairs(zones: readonly Zone[]): Array<[Shape, Shape]> {
  // A missing floor is one level of its own: such zones are compared with each
  // other but never with zones that name a floor.
  const byFloor = new Map<string | null, Shape[]>();
  zones.forEach((zone, index) => {
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

function overlapError(pairs: ReadonlyArray<[Shape, Shape]>, where: string): ApiError {
  const name = (s: Shape): string => JSON.stringify(s.zone.name);
  const path = (s: Shape): string => `${where}.zones.${s.index}`;
  const message = pairs.map(([a, b]) => `zones ${name(a)} and ${name(b)} overlap`).join('; ');
  const errors = pairs.flatMap(([a, b]) => [
    { path: path(a), reason: `overlaps zone ${name(b)} (${path(b)})` },
    { path: path(b), reason: `overlaps zone ${name(a)} (${path(a)})` },
  ]);
  return badRequest(message, errors);
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
  const problems = zoneProblems(zones, where);
  if (E.isLeft(facility)) {
    // Reported together with outline problems, so a client fixes its body in one round.
    return E.left(badRequest(facility.left.message, [...facility.left.errors, ...problems]));
  }
  if (problems.length > 0) {
    const first = problems[0] as FieldError;
    return E.left(badRequest(`Invalid zone map: ${first.path} ${first.reason}`, problems));
  }
  // Only between valid outlines does an overlap mean anything.
  const pairs = overlappingPairs(zones);
  if (pairs.length > 0) return E.left(overlapError(pairs, where));
  return E.right({ name: input.name, facility: facility.right, zones });
}
