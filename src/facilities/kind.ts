// The facility resource kind: stream `facility-<name>`, events
// FacilityCreated/Replaced/Deleted, read model key `config:facility`.
import * as t from 'io-ts';
import { defineResourceKind } from '../core/resource/kind';
import type { Facility } from './codec';

export const FacilityDoc: t.Type<Facility, unknown, unknown> = t.type({ name: t.string }, 'Facility') as never;
export const facilityKind = defineResourceKind<Facility>('facility', 'Facility', FacilityDoc);
