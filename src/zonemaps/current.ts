// The current zone map of each facility: the one the item engine uses to turn
// locations into zones. A selection names a zone map; the facility is always
// that zone map's own facility, so a selection can never point across
// facilities.
import * as E from 'fp-ts/Either';
import { conflict, notFound, type ApiError } from '../core/http/errors';

/** facility name -> name of its current zone map. Facilities without one are absent. */
export type CurrentZoneMaps = ReadonlyMap<string, string>;

export interface ZoneMapRef {
  name: string;
  facility: string;
}

export type CurrentZoneMapCommand =
  | { type: 'SelectCurrentZoneMap'; zoneMapName: string }
  | { type: 'ClearCurrentZoneMap'; facility: string };

/** `previous` lets the caller skip appending when nothing changes. */
export type CurrentZoneMapChange =
  | { type: 'CurrentZoneMapSelected'; facility: string; zoneMapName: string; previous: string | undefined }
  | { type: 'CurrentZoneMapCleared'; facility: string; previous: string | undefined };

export interface CurrentZoneMapContext {
  zoneMaps: readonly ZoneMapRef[];
  facilityNames: readonly string[];
  current: CurrentZoneMaps;
}

const quote = (s: string): string => JSON.stringify(s);

/** Select: 404 if the zone map does not exist. Clear: 404 if the facility does not exist; clearing nothing is fine. */
export function decideCurrentZoneMap(
  command: CurrentZoneMapCommand,
  context: CurrentZoneMapContext,
): E.Either<ApiError, CurrentZoneMapChange> {
  switch (command.type) {
    case 'SelectCurrentZoneMap': {
      const zoneMap = context.zoneMaps.find((z) => z.name === command.zoneMapName);
      if (zoneMap === undefined) return E.left(notFound(`zone map ${quote(command.zoneMapName)} not found`));
      const previous = context.current.get(zoneMap.facility);
      return E.right({ type: 'CurrentZoneMapSelected', facility: zoneMap.facility, zoneMapName: zoneMap.name, previous });
    }
    case 'ClearCurrentZoneMap': {
      if (!context.facilityNames.includes(command.facility)) {
        return E.left(notFound(`facility ${quote(command.facility)} not found`));
      }
      return E.right({ type: 'CurrentZoneMapCleared', facility: command.facility, previous: context.current.get(command.facility) });
    }
    default: {
      const unknown: never = command;
      throw new Error(`unhandled current zone map command ${JSON.stringify(unknown)}`);
    }
  }
}

/** Folds a change into the selection state (for a projection or an aggregate). */
export function applyCurrentZoneMapChange(current: CurrentZoneMaps, change: CurrentZoneMapChange): CurrentZoneMaps {
  const next = new Map(current);
  switch (change.type) {
    case 'CurrentZoneMapSelected':
      next.set(change.facility, change.zoneMapName);
      return next;
    case 'CurrentZoneMapCleared':
      next.delete(change.facility);
      return next;
    default: {
      const unknown: never = change;
      throw new Error(`unhandled current zone map change ${JSON.stringify(unknown)}`);
    }
  }
}

function currentOf(zoneMapName: string, current: CurrentZoneMaps): string | undefined {
  for (const [facility, name] of current) if (name === zoneMapName) return facility;
  return undefined;
}

const inUse = (zoneMapName: string, facility: string): ApiError =>
  conflict(`zone map ${quote(zoneMapName)} is the current zone map of facility ${quote(facility)}; clear it first`);

/**
 * Deleting the current zone map is refused (409) rather than clearing the
 * selection as a side effect: the item engine of a running job would silently
 * lose its zones. The client clears the selection explicitly first.
 */
export function checkZoneMapDeletion(zoneMapName: string, current: CurrentZoneMaps): E.Either<ApiError, void> {
  const facility = currentOf(zoneMapName, current);
  return facility === undefined ? E.right(undefined) : E.left(inUse(zoneMapName, facility));
}

/**
 * A create-or-replace that moves the current zone map of a facility to another
 * facility is refused (409) for the same reason: the selection would name a
 * zone map of a different facility. Replacing it within its facility is fine
 * (that is how a live map is edited).
 */
export function checkZoneMapReplace(zoneMapName: string, newFacility: string, current: CurrentZoneMaps): E.Either<ApiError, void> {
  const facility = currentOf(zoneMapName, current);
  return facility === undefined || facility === newFacility ? E.right(undefined) : E.left(inUse(zoneMapName, facility));
}
