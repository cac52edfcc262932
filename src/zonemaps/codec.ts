// Codecs for zone map bodies and the stored zone map. Decoding only checks
// shapes; geometric rules (polygons, overlaps) and the facility rule live in
// validate.ts because they need the whole map and the list of facilities.
import * as t from 'io-ts';
import { Name, ResourceName } from '../core/codecs';

/** A JSON number that is finite (io-ts' `t.number` lets NaN through). */
export const FiniteNumber = new t.Type<number, number, unknown>(
  'FiniteNumber',
  (u): u is number => typeof u === 'number' && Number.isFinite(u),
  (u, c) => {
    if (u === undefined) return t.failure(u, c, 'is required (number)');
    if (u === null) return t.failure(u, c, 'must not be null');
    return typeof u === 'number' && Number.isFinite(u) ? t.success(u) : t.failure(u, c, 'must be a finite number');
  },
  t.identity,
);

/**
 * `z` may be omitted (it defaults to 0.0) but an explicit null is refused:
 * the interface says so, and it tells a client that null is not "absent".
 */
const OptionalZ = new t.Type<number | undefined, number | undefined, unknown>(
  'OptionalZ',
  (u): u is number | undefined => u === undefined || (typeof u === 'number' && Number.isFinite(u)),
  (u, c) => (u === undefined ? t.success(undefined) : FiniteNumber.validate(u, c)),
  t.identity,
);

export const PointInput = t.intersection([t.type({ x: FiniteNumber, y: FiniteNumber }), t.partial({ z: OptionalZ })], 'Point');
export type PointInput = t.TypeOf<typeof PointInput>;

/** Floors are names; omitted and null both mean "no floor". */
const OptionalFloor = t.union([t.string, t.null, t.undefined], 'string or null');

export const ZoneInput = t.intersection(
  [t.type({ name: Name, points: t.array(PointInput) }), t.partial({ floor: OptionalFloor })],
  'Zone',
);
export type ZoneInput = t.TypeOf<typeof ZoneInput>;

/** Body of zone map create and create-or-replace. */
export const ZoneMapInput = t.intersection(
  [
    t.type({ name: ResourceName, zones: t.array(ZoneInput) }),
    t.partial({ facility: t.union([t.string, t.null, t.undefined], 'string or null') }),
  ],
  'ZoneMap',
);
export type ZoneMapInput = t.TypeOf<typeof ZoneMapInput>;

/** Stored form: z filled in, floor null when omitted, facility resolved. */
export const Point = t.type({ x: t.number, y: t.number, z: t.number }, 'StoredPoint');
export type Point = t.TypeOf<typeof Point>;

export const Zone = t.type({ name: t.string, floor: t.union([t.string, t.null]), points: t.array(Point) }, 'StoredZone');
export type Zone = t.TypeOf<typeof Zone>;

export const ZoneMap = t.type({ name: t.string, facility: t.string, zones: t.array(Zone) }, 'StoredZoneMap');
export type ZoneMap = t.TypeOf<typeof ZoneMap>;
