// Zone maps: CRUD on named zone map documents under
// /configuration/v1/zoneMaps, and the current zone map of each facility
// under /control/v1/currentZoneMap (current-routes.ts). A zone map that is
// the current one of its facility cannot be deleted nor moved to another
// facility; a facility that still has zone maps cannot be deleted.
import * as E from 'fp-ts/Either';
import type { ApiError } from '../core/http/errors';
import { addNamedResourceRoutes } from '../core/resource/routes';
import type { Slice } from '../slice';
import { facilityKind, type UsageSource } from '../facilities';
import { ZoneMapInput, type ZoneMap } from './codec';
import { checkZoneMapDeletion, checkZoneMapReplace, type CurrentZoneMaps } from './current';
import { currentZoneMaps } from './current-readmodel';
import { registerCurrentZoneMapRoutes } from './current-routes';
import { zoneMapKind } from './kind';
import { zoneMapBodySchema, zoneMapResponseSchema } from './schema';
import { validateZoneMap } from './validate';

export const ZONE_MAP_WRITE_ROLES = ['ConfigManager'];
export const ZONE_MAP_READ_ROLES = ['ConfigManager', 'JobRunner'];

/** What validating a zone map write needs from the rest of the configuration. */
export interface ZoneMapWriteContext {
  readonly facilityNames: readonly string[];
  readonly current: CurrentZoneMaps;
}

/**
 * Pure: the stored zone map, or a 400 naming the field (facility, outlines,
 * overlaps), or a 409 when it would move the current zone map of a facility
 * to another facility.
 */
export function validateZoneMapWrite(input: ZoneMapInput, ctx: ZoneMapWriteContext): E.Either<ApiError, ZoneMap> {
  const zoneMap = validateZoneMap(input, ctx.facilityNames);
  if (E.isLeft(zoneMap)) return zoneMap;
  const move = checkZoneMapReplace(zoneMap.right.name, zoneMap.right.facility, ctx.current);
  return E.isLeft(move) ? move : zoneMap;
}

/** Zone maps per facility, so a facility with zone maps is not deleted. */
export const zoneMapFacilityUsage: UsageSource = async (deps) => ({
  zoneMaps: (await deps.readModel.list(zoneMapKind)).map((z) => ({ name: z.name, facility: z.facility })),
});

export const zoneMapsSlice: Slice = {
  name: 'zoneMaps',
  facilityUsage: zoneMapFacilityUsage,
  register(table, deps) {
    addNamedResourceRoutes<ZoneMap, ZoneMapInput, ZoneMapWriteContext>(table, deps, {
      kind: zoneMapKind,
      base: '/configuration/v1/zoneMaps',
      param: 'zoneMapName',
      tag: 'Zone maps',
      operationNouns: { one: 'ZoneMap', many: 'ZoneMaps' },
      writeRoles: ZONE_MAP_WRITE_ROLES,
      readRoles: ZONE_MAP_READ_ROLES,
      body: ZoneMapInput,
      bodySchema: zoneMapBodySchema,
      responseSchema: zoneMapResponseSchema,
      nameOf: (b) => b.name,
      context: async (d) => {
        const [facilities, current] = await Promise.all([d.readModel.list(facilityKind), currentZoneMaps(d.readModel)]);
        return { facilityNames: facilities.map((f) => f.name), current };
      },
      validate: (input, ctx) => validateZoneMapWrite(input, ctx),
      toResponse: (z) => z,
      beforeDelete: async (name, _z, d) => {
        const refusal = checkZoneMapDeletion(name, await currentZoneMaps(d.readModel));
        return E.isLeft(refusal) ? refusal.left : undefined;
      },
    });
    registerCurrentZoneMapRoutes(table, deps);
  },
};
