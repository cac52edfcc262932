// Facilities: CRUD on named facility documents. DEFAULT exists from the
// start; a facility still used by reader definitions, zone maps or active
// jobs, or the last one, cannot be deleted.
import { nameSchema } from '../core/codecs';
import { right } from 'fp-ts/Either';
import { addNamedResourceRoutes } from '../core/resource/routes';
import { createResourceOnce } from '../core/resource/once';
import type { AppDeps, Slice } from '../slice';
import { DEFAULT_FACILITY, FacilityBody, type Facility } from './codec';
import { decideFacilityDeletion } from './deletion';
import { facilityKind } from './kind';
import { facilityUsage } from './usage';

const CONFIG_ROLES = ['ConfigManager'];
const READ_ROLES = ['ConfigManager', 'JobRunner'];

export const facilitiesSlice: Slice = {
  name: 'facilities',
  // Once, ever: after a user deletes DEFAULT it stays deleted (once.ts).
  bootstrap: async (deps: AppDeps) => {
    await createResourceOnce(deps.client, facilityKind, DEFAULT_FACILITY, { name: DEFAULT_FACILITY });
  },
  register(table, deps) {
    addNamedResourceRoutes<Facility, FacilityBody, null>(table, deps, {
      kind: facilityKind,
      base: '/configuration/v1/facilities',
      param: 'facilityName',
      tag: 'Facilities',
      operationNouns: { one: 'Facility', many: 'Facilities' },
      writeRoles: CONFIG_ROLES,
      readRoles: READ_ROLES,
      body: FacilityBody,
      bodySchema: { type: 'object', required: ['name'], properties: { name: nameSchema() } },
      responseSchema: { type: 'object', required: ['name'], additionalProperties: false, properties: { name: { type: 'string' } } },
      nameOf: (b) => b.name,
      context: async () => null,
      validate: (b) => right({ name: b.name }),
      toResponse: (f) => ({ name: f.name }),
      beforeDelete: async (name, _f, d) => {
        const decision = decideFacilityDeletion({ ...(await facilityUsage(d, deps.facilityUsage)), name });
        return decision._tag === 'Left' ? decision.left : undefined;
      },
    });
  },
};
