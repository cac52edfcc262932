// Facilities: CRUD on named facility documents. DEFAULT exists from the
// start; a facility still used by reader definitions, zone maps or active
// jobs, or the last one, cannot be deleted.
import { nameSchema } from '../core/codecs';
import { right } from 'fp-ts/Either';
import type { EventStoreDBClient } from '@eventstore/db-client';
import { WrongExpectedVersionError } from '@eventstore/db-client';
import { addNamedResourceRoutes } from '../core/resource/routes';
import { encodeEvent } from '../core/events';
import { eventNames, resourceEventCodecs, streamOf, type ResourceKind } from '../core/resource/kind';
import { resourcePart } from '../../projections/config/projection';
import type { AppDeps, Slice } from '../core/slice';
import { DEFAULT_FACILITY, FacilityBody, type Facility } from './codec';
import { decideFacilityDeletion } from './deletion';
import { facilityKind } from './kind';
import { facilityUsage } from './usage';

const CONFIG_ROLES = ['ConfigManager'];
const READ_ROLES = ['ConfigManager', 'JobRunner'];

/** Appends DEFAULT once, ever: after a user deletes it, it stays deleted. */
async function ensureDefaultFacility(client: EventStoreDBClient): Promise<void> {
  const codecs = resourceEventCodecs(facilityKind);
  const event = encodeEvent(codecs, {
    type: eventNames(facilityKind as ResourceKind<unknown>).created,
    data: { name: DEFAULT_FACILITY, resource: { name: DEFAULT_FACILITY } },
  }, { user: 'system' });
  try {
    await client.appendToStream(streamOf(facilityKind as ResourceKind<unknown>, DEFAULT_FACILITY), event, { expectedRevision: 'no_stream' });
  } catch (err) {
    if (!(err instanceof WrongExpectedVersionError)) throw err;
  }
}

export const facilitiesSlice: Slice = {
  name: 'facilities',
  projectionParts: [resourcePart(facilityKind)],
  bootstrap: async (deps: AppDeps) => ensureDefaultFacility(deps.client),
  register(table, deps) {
    addNamedResourceRoutes<Facility, FacilityBody, null>(table, deps, {
      kind: facilityKind,
      base: '/configuration/v1/facilities',
      param: 'facilityName',
      tag: 'Facilities',
      writeRoles: CONFIG_ROLES,
      readRoles: READ_ROLES,
      body: FacilityBody,
      bodySchema: { type: 'object', required: ['name'], properties: { name: nameSchema() } },
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
