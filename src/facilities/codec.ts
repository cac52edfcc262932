// Codecs for the facility resource. Names are identifiers: they end up in
// stream names (`facility-<name>`), in URL paths and in every resource that
// refers to a facility, so a name that is not a Name (core/codecs) is
// refused at the boundary.
import * as t from 'io-ts';
import { ResourceName } from '../core/codecs';

/** Body of facility create and create-or-replace. Unknown fields are dropped. */
export const FacilityBody = t.strict({ name: ResourceName }, 'FacilityBody');
export type FacilityBody = t.TypeOf<typeof FacilityBody>;

/** The stored and returned facility. */
export interface Facility {
  name: string;
}

/** The facility that exists from the start. */
export const DEFAULT_FACILITY = 'DEFAULT';
