// Validation of reader definition bodies (after decoding) into the stored
// document, and the update rules of create-or-replace (spec: Reader
// definition, "Rules on update"; Errors 5).
import { chain, left, right, type Either } from 'fp-ts/Either';
import { pipe } from 'fp-ts/function';
import { badRequest, type ApiError, type FieldError } from '../core/http/errors';
import { normalizeFloor, normalizePlacement, type ReaderDefinition, type ReaderDefinitionBody } from './codec';
import { resolveFacility } from '../facilities';
import { ANTENNA_ID_RULE, isAntennaId } from './reader-types';
import { needsAddress, toStoredConnection, type ReaderConnection } from './connection';

function antennaKeyErrors(antennaZones: Readonly<Record<string, string>> | null | undefined): FieldError[] {
  // JSON object keys are strings; only canonical decimal antenna ids are
  // accepted so that "01" and "1" cannot name the same antenna twice.
  return Object.keys(antennaZones ?? {})
    .filter((key) => !/^[1-9]\d*$/.test(key) || !isAntennaId(Number(key)))
    .map((key) => ({ path: `body.antennaZones.${key}`, reason: `key must be an antenna id (${ANTENNA_ID_RULE})` }));
}

/**
 * The document to store for a body. `agentIdentifier` is the service's: a
 * new definition gets its name (the agent of a reader checks in under it),
 * a replaced one keeps the one it had.
 */
function toDocument(
  input: ReaderDefinitionBody,
  facility: string,
  agentIdentifier: string,
  existingConnection: ReaderConnection | null = null,
): Either<ApiError, ReaderDefinition> {
  const keyErrors = antennaKeyErrors(input.antennaZones);
  if (keyErrors.length > 0) return left(badRequest('Invalid antennaZones', keyErrors));
  const connection = toStoredConnection(input.connection, existingConnection);
  if (needsAddress(connection) && (input.address ?? '').trim() === '') {
    return left(badRequest('Invalid address', [{ path: 'body.address', reason: `is required when connection.protocol is ${connection?.protocol}: tagtrail connects to the reader there` }]));
  }
  return right({
    name: input.name,
    agentIdentifier,
    address: input.address ?? null,
    groups: input.groups ?? [],
    type: input.type ?? null,
    placement: normalizePlacement(input.placement),
    facility,
    readerZone: input.readerZone ?? null,
    antennaZones: input.antennaZones ?? null,
    labels: input.labels ?? null,
    connection,
  });
}

export function validateReaderDefinitionCreate(
  input: ReaderDefinitionBody,
  facilityNames: readonly string[],
): Either<ApiError, ReaderDefinition> {
  return pipe(
    resolveFacility(input.facility, facilityNames, 'body.facility'),
    chain((facility) => toDocument(input, facility, input.name)),
  );
}

/**
 * Once set, a floor stays: createOrReplace replaces the whole document, so a
 * body without `placement` or without `placement.floor` removes it too.
 */
function floorRemoval(existing: ReaderDefinition, next: ReaderDefinition): ApiError | undefined {
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
function unrenamedZones(existing: ReaderDefinition, next: ReaderDefinition): ApiError | undefined {
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

/** createOrReplace: like create when nothing exists, else the update rules apply. */
export function validateReaderDefinitionReplace(
  existing: ReaderDefinition | undefined,
  input: ReaderDefinitionBody,
  facilityNames: readonly string[],
): Either<ApiError, ReaderDefinition> {
  if (existing === undefined) return validateReaderDefinitionCreate(input, facilityNames);
  return pipe(
    resolveFacility(input.facility, facilityNames, 'body.facility'),
    chain((facility) => toDocument(input, facility, existing.agentIdentifier, existing.connection ?? null)),
    chain((next) => {
      const refusal = floorRemoval(existing, next) ?? unrenamedZones(existing, next);
      return refusal ? left(refusal) : right(next);
    }),
  );
}

/** `GET /readerDefinitions/groups`: every group name once, sorted for stable output. */
export function groupsUnion(defs: ReadonlyArray<Pick<ReaderDefinition, 'groups'>>): string[] {
  return [...new Set(defs.flatMap((d) => d.groups))].sort();
}
