// The current zone map of one facility as an event-sourced aggregate: one
// stream per facility (`currentZoneMap-<facility>`), so selections in
// different facilities never contend. The rules themselves are the pure
// decideCurrentZoneMap of current.ts; this module turns its decision into
// events (none when nothing changes) and folds them back.
import * as t from 'io-ts';
import * as E from 'fp-ts/Either';
import { defineEvents, type EventOf } from '../core/events';
import type { ApiError } from '../core/http/errors';
import {
  decideCurrentZoneMap,
  type CurrentZoneMapChange,
  type CurrentZoneMapCommand,
  type ZoneMapRef,
} from './current';

export const CURRENT_ZONE_MAP_STREAM_PREFIX = 'currentZoneMap-';
export const currentZoneMapStream = (facility: string): string => `${CURRENT_ZONE_MAP_STREAM_PREFIX}${facility}`;

export const currentZoneMapEvents = defineEvents({
  CurrentZoneMapSelected: t.type({ facility: t.string, zoneMapName: t.string }),
  CurrentZoneMapCleared: t.type({ facility: t.string }),
});
export type CurrentZoneMapEvent = EventOf<typeof currentZoneMapEvents>;

/** The selection of the stream's facility: a zone map name, or none. */
export interface CurrentZoneMapState {
  readonly zoneMapName: string | undefined;
}

export const initialCurrentZoneMapState: CurrentZoneMapState = { zoneMapName: undefined };

export function evolveCurrentZoneMap(_state: CurrentZoneMapState, event: CurrentZoneMapEvent): CurrentZoneMapState {
  switch (event.type) {
    case 'CurrentZoneMapSelected':
      return { zoneMapName: event.data.zoneMapName };
    case 'CurrentZoneMapCleared':
      return { zoneMapName: undefined };
    default: {
      const unknown: never = event;
      throw new Error(`unhandled current zone map event ${JSON.stringify(unknown)}`);
    }
  }
}

/** Re-selecting the current zone map, or clearing nothing, appends nothing. */
export function eventsOfChange(change: CurrentZoneMapChange): CurrentZoneMapEvent[] {
  switch (change.type) {
    case 'CurrentZoneMapSelected':
      return change.previous === change.zoneMapName
        ? []
        : [{ type: 'CurrentZoneMapSelected', data: { facility: change.facility, zoneMapName: change.zoneMapName } }];
    case 'CurrentZoneMapCleared':
      return change.previous === undefined ? [] : [{ type: 'CurrentZoneMapCleared', data: { facility: change.facility } }];
    default: {
      const unknown: never = change;
      throw new Error(`unhandled current zone map change ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * What the decision needs besides the stream's own state, loaded from the
 * config read model before deciding.
 */
export interface CurrentZoneMapSnapshot {
  readonly zoneMaps: readonly ZoneMapRef[];
  readonly facilityNames: readonly string[];
}

/**
 * Decides a command on the stream of `facility`. The stream, not the read
 * model, says what is currently selected there, so `previous` is the truth
 * even right after another write. A selection whose zone map belongs to
 * another facility than the stream's is a caller bug (the stream is chosen
 * from the zone map's facility) and throws.
 */
export function decideOnFacilityStream(
  facility: string,
  snapshot: CurrentZoneMapSnapshot,
): (command: CurrentZoneMapCommand, state: CurrentZoneMapState) => E.Either<ApiError, CurrentZoneMapEvent[]> {
  return (command, state) => {
    const current = new Map(state.zoneMapName === undefined ? [] : [[facility, state.zoneMapName] as const]);
    const change = decideCurrentZoneMap(command, { ...snapshot, current });
    if (E.isLeft(change)) return change;
    if (change.right.facility !== facility) {
      throw new Error(`current zone map of ${change.right.facility} decided on the stream of ${facility}`);
    }
    return E.right(eventsOfChange(change.right));
  };
}
