// Validation of reader definition bodies (after decoding) into the stored
// document, and the update rules of create-or-replace (spec: Reader
// definition, "Rules on update"; Errors 5).
import { isLeft, isRight, left, right, type Either } from 'fp-ts/Either';
import { badRequest, type ApiError, type FieldError } from '../core/http/errors';
import { invalid } from '../core/given';
import { normalizeFloor, normalizePlacement, type ReaderDefinition, type ReaderDefinitionBody } from './codec';
import { resolveFacility } from '../facilities';
import { addressErrors, antennaIdErrors, placementErrors, zoneNameErrors } from './rules';
import { needsAddress, toStoredConnection, type ReaderConnection } from './connection';

/** The zones of each facility's current zone map (facilities without one are absent). */
export type FacilityZones = ReadonlyMap<string, { readonly name: string; readonly zones: ReadonlySet<string> }>;

const NO_ZONE_MAPS: FacilityZones = new Map();

/**
 * The document to store for a body, or a 400 listing every problem of the
 * body at once (facility, angles, address, antennas, zones). `agentIdentifier`
 * is the service's: a new definition gets its name (the agent of a reader
 * checks in under it), a replaced one keeps the one it had.
 */
function toDocument(
  input: ReaderDefinitionBody,
  facilityNames: readonly string[],
  zonesOf: FacilityZones,
  agentIdentifier: string,
  existingConnection: ReaderConnection | null = null,
): Either<ApiError, ReaderDefinition> {
  const facility = resolveFacility(input.facility, facilityNames, 'body.facility');
  const connection = toStoredConnection(input.connection, existingConnection);
  const errors: FieldError[] = [
    ...(isLeft(facility) ? facility.left.errors : []),
    ...placementErrors(input.placement),
    ...addressErrors(input.address),
    ...antennaIdErrors(input.antennaZones, input.type),
    ...(isLeft(facility) ? [] : zoneNameErrors(input.readerZone, input.antennaZones, zonesOf.get(facility.right))),
  ];
  if (needsAddress(connection) && (input.address ?? '').trim() === '') {
    errors.push({ path: 'body.address', reason: `is required when connection.protocol is ${connection?.protocol}: tagtrail connects to the reader there` });
  }
  if (isLeft(facility) || errors.length > 0) return left(invalid('reader definition', errors));
  return right({
    name: input.name,
    agentIdentifier,
    address: input.address ?? null,
    groups: input.groups ?? [],
    type: input.type ?? null,
    placement: normalizePlacement(input.placement),
    facility: facility.right,
    readerZone: input.readerZone ?? null,
    antennaZones: input.antennaZones ?? null,
    labels: input.labels ?? null,
    connection,
  });
}

/** `zonesOf`: the facilities' current zone maps, whose zones readerZone and antennaZones must name. */
export function validateReaderDefinitionCreate(
  input: ReaderDefinitionBody,
  facilityNames: readonly string[],
  zonesOf: FacilityZones = NO_ZONE_MAPS,
): Either<ApiError, ReaderDefinition> {
  return toDocument(input, facilityNames, zonesOf, input.name);
}

/** What the update rules read of the definition a body would store. */
type Moved = Pick<ReaderDefinition, 'facility' | 'placement' | 'readerZone' | 'antennaZones'>;

/**
 * Once set, a floor stays: createOrReplace replaces the whole document, so a
 * body without `placement` or without `placement.floor` removes it too.
 */
function floorRemoval(existing: ReaderDefinition, next: Moved): ApiError | undefined {
  const floor = normalizeFloor(existing.placement?.floor);
  if (floor === null || normalizeFloor(next.placement?.floor) !== null) return undefined;
  const path = next.placement === null ? 'body.placement' : 'body.placement.floor';
  return badRequest(`The floor of reader ${existing.name} may not be removed once set`, [
    { path, reason: `may not be null or omitted: the reader has floor ${JSON.stringify(floor)}` },
  ]);
}

/**
 * Zone names are meant inside one facility and floor; moving a reader while
 * keeping them would silently place its reads in a zone of the old place.
 * A first floor (none before) is not a change of floor: no zone was bound to
 * a floor yet. Names are compared per field and per antenna id; a name that
 * became null counts as renamed.
 */
function unrenamedZones(existing: ReaderDefinition, next: Moved): ApiError | undefined {
  const oldFloor = normalizeFloor(existing.placement?.floor);
  const newFloor = normalizeFloor(next.placement?.floor);
  const facilityChanged = existing.facility !== next.facility;
  const floorChanged = oldFloor !== null && newFloor !== null && oldFloor !== newFloor;
  if (!facilityChanged && !floorChanged) return undefined;
  const what = facilityChanged ? `facility ${existing.facility} -> ${next.facility}` : `floor ${oldFloor} -> ${newFloor}`;
  const errors: FieldError[] = [];
  if (existing.readerZone !== null && next.readerZone === existing.readerZone) {
    errors.push({ path: 'body.readerZone', reason: `must be renamed (${what}), still ${JSON.stringify(next.readerZone)}` });
  }
  for (const [antenna, zone] of Object.entries(existing.antennaZones ?? {})) {
    if (next.antennaZones?.[antenna] === zone) {
      errors.push({ path: `body.antennaZones.${antenna}`, reason: `must be renamed (${what}), still ${JSON.stringify(zone)}` });
    }
  }
  if (errors.length === 0) return undefined;
  return badRequest('readerZone and antennaZones must be renamed when the facility or floor changes', errors);
}

/**
 * createOrReplace: like create when nothing exists, else the update rules
 * apply too, all in one answer: they judge the body as sent even when its
 * fields break other rules (a facility that does not exist is still a move).
 */
export function validateReaderDefinitionReplace(
  existing: ReaderDefinition | undefined,
  input: ReaderDefinitionBody,
  facilityNames: readonly string[],
  zonesOf: FacilityZones = NO_ZONE_MAPS,
): Either<ApiError, ReaderDefinition> {
  if (existing === undefined) return validateReaderDefinitionCreate(input, facilityNames, zonesOf);
  const doc = toDocument(input, facilityNames, zonesOf, existing.agentIdentifier, existing.connection ?? null);
  const next: Moved = isRight(doc)
    ? doc.right
    : { facility: input.facility ?? existing.facility, placement: normalizePlacement(input.placement), readerZone: input.readerZone ?? null, antennaZones: input.antennaZones ?? null };
  const refusals = [...(isLeft(doc) ? [doc.left] : []), floorRemoval(existing, next), unrenamedZones(existing, next)].filter((r) => r !== undefined);
  const [first] = refusals;
  if (first === undefined) return doc;
  return left(badRequest(first.message, refusals.flatMap((r) => r.errors)));
}

/** `GET /readerDefinitions/groups`: every group name once, sorted for stable output. */
export function groupsUnion(defs: ReadonlyArray<Pick<ReaderDefinition, 'groups'>>): string[] {
  return [...new Set(defs.flatMap((d) => d.groups))].sort();
}
