// The current zone map of each facility, under /control/v1/currentZoneMap:
// select (by zone map name; the zone map's facility is the target), show and
// clear (by facility name). Writes go to the facility's own stream
// (`currentZoneMap-<facility>`) and wait for the read model, so a show right
// after a select sees it.
import * as E from 'fp-ts/Either';
import { runCommand } from '../core/command';
import type { EventMetadata } from '../core/events';
import { notFound } from '../core/http/errors';
import type { RouteTable } from '../core/http/routes';
import { commandMetadata, type ResourceDeps } from '../core/resource/routes';
import { facilityKind } from '../facilities';
import { decideCurrentZoneMap, type CurrentZoneMapCommand } from './current';
import { currentZoneMapOf } from './current-readmodel';
import {
  currentZoneMapEvents,
  currentZoneMapStream,
  decideOnFacilityStream,
  evolveCurrentZoneMap,
  initialCurrentZoneMapState,
  type CurrentZoneMapSnapshot,
  type CurrentZoneMapState,
} from './events';
import { zoneMapKind } from './kind';
import { currentZoneMapResponseSchema, zoneMapResponseDescription, zoneMapResponseSchema } from './schema';

export const CURRENT_ZONE_MAP_BASE = '/control/v1/currentZoneMap';
/**
 * Selecting and clearing change how every job of the facility turns
 * locations into zones: a configuration change, so ConfigManager (and Admin).
 * Showing it is needed by whoever runs jobs or reads item data (zone names
 * in item data come from it), so ConfigManager, JobRunner and DataReader.
 */
export const CURRENT_ZONE_MAP_WRITE_ROLES = ['ConfigManager'];
export const CURRENT_ZONE_MAP_READ_ROLES = ['ConfigManager', 'JobRunner', 'DataReader'];
const TAG = 'Current zone map';

const quote = (s: string): string => JSON.stringify(s);

async function snapshot(deps: ResourceDeps): Promise<CurrentZoneMapSnapshot> {
  const [zoneMaps, facilities] = await Promise.all([deps.readModel.list(zoneMapKind), deps.readModel.list(facilityKind)]);
  return { zoneMaps: zoneMaps.map((z) => ({ name: z.name, facility: z.facility })), facilityNames: facilities.map((f) => f.name) };
}

/** Decides on the facility's stream, appends (if anything changes) and waits for the read model. */
export async function runCurrentZoneMapCommand(
  deps: ResourceDeps,
  facility: string,
  command: CurrentZoneMapCommand,
  snap: CurrentZoneMapSnapshot,
  metadata: EventMetadata,
): Promise<CurrentZoneMapState> {
  const stream = {
    stream: currentZoneMapStream(facility),
    codecs: currentZoneMapEvents,
    decider: { initialState: initialCurrentZoneMapState, evolve: evolveCurrentZoneMap, decide: decideOnFacilityStream(facility, snap) },
    conflict: `current zone map of facility ${quote(facility)} was changed concurrently; retry`,
  };
  const result = await runCommand(deps.client, stream, command, { metadata, waiter: deps.waiter });
  if (E.isLeft(result)) throw result.left;
  return result.right.state;
}

export function registerCurrentZoneMapRoutes(table: RouteTable, deps: ResourceDeps): void {
  table.add(
    {
      method: 'post',
      operationId: 'selectCurrentZoneMap',
      path: `${CURRENT_ZONE_MAP_BASE}/select/:zoneMapName`,
      roles: CURRENT_ZONE_MAP_WRITE_ROLES,
      tag: TAG,
      summary: "Make a zone map the current zone map of its facility (the zone map's facility is the target)",
      responses: { 200: { description: `the selected ${zoneMapResponseDescription}`, schema: zoneMapResponseSchema }, 404: 'no such zone map' },
    },
    async (ctx) => {
      const zoneMapName = String(ctx.params['zoneMapName']);
      const snap = await snapshot(deps);
      const command: CurrentZoneMapCommand = { type: 'SelectCurrentZoneMap', zoneMapName };
      // The zone map's facility names the stream; the decision is re-made on it.
      const target = decideCurrentZoneMap(command, { ...snap, current: new Map() });
      if (E.isLeft(target)) throw target.left;
      await runCurrentZoneMapCommand(deps, target.right.facility, command, snap, commandMetadata(ctx));
      const zoneMap = await deps.readModel.get(zoneMapKind, zoneMapName);
      if (zoneMap === undefined) throw notFound(`zone map ${quote(zoneMapName)} not found`);
      ctx.body = zoneMap;
    },
  );
  table.add(
    {
      method: 'get',
      operationId: 'showCurrentZoneMap',
      path: `${CURRENT_ZONE_MAP_BASE}/show/:facilityName`,
      roles: CURRENT_ZONE_MAP_READ_ROLES,
      tag: TAG,
      summary: 'Show the current zone map of a facility; {name: null, facility} when it has none',
      responses: {
        200: { description: `the current ${zoneMapResponseDescription}, or {name: null, facility} when none is selected`, schema: currentZoneMapResponseSchema },
        404: 'no such facility',
      },
    },
    async (ctx) => {
      const facility = String(ctx.params['facilityName']);
      if ((await deps.readModel.get(facilityKind, facility)) === undefined) throw notFound(`facility ${quote(facility)} not found`);
      const zoneMap = await currentZoneMapOf(deps.readModel, facility);
      // Clients that save the configuration call this for every facility and
      // skip answers without a name: a facility without a selection is not an error.
      ctx.body = zoneMap ?? { name: null, facility };
    },
  );
  table.add(
    {
      method: 'delete',
      operationId: 'clearCurrentZoneMap',
      path: `${CURRENT_ZONE_MAP_BASE}/clear/:facilityName`,
      roles: CURRENT_ZONE_MAP_WRITE_ROLES,
      tag: TAG,
      summary: 'Clear the current zone map of a facility (204 also when none was selected)',
      responses: { 204: 'cleared', 404: 'no such facility' },
    },
    async (ctx) => {
      const facility = String(ctx.params['facilityName']);
      await runCurrentZoneMapCommand(deps, facility, { type: 'ClearCurrentZoneMap', facility }, await snapshot(deps), commandMetadata(ctx));
      ctx.status = 204;
    },
  );
}
