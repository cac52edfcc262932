// Codecs for the facility resource. Names are identifiers: they end up in
// stream names (`facility-<name>`), in URL paths and in every resource that
// refers to a facility, so an empty or blank name is refused at the boundary.
import * as t from 'io-ts';

/**
 * A string that is not empty and not only whitespace. Kept exactly as given
 * (no trimming): trimming silently would make `"A "` and `"A"` collide while
 * the client believes it created two different things.
 */
export const NonBlankString = new t.Type<string, string, unknown>(
  'NonBlankString',
  (u): u is string => typeof u === 'string' && u.trim().length > 0,
  (u, c) => {
    if (typeof u !== 'string') return t.failure(u, c, u === undefined ? 'is required (string)' : 'must be a string');
    return u.trim().length > 0 ? t.success(u) : t.failure(u, c, 'must not be empty');
  },
  t.identity,
);

/** Body of facility create and create-or-replace. Unknown fields are dropped. */
export const FacilityBody = t.strict({ name: NonBlankString }, 'FacilityBody');
export type FacilityBody = t.TypeOf<typeof FacilityBody>;

/** The stored and returned facility. */
export interface Facility {
  name: string;
}

/** The facility that exists from the start. */
export const DEFAULT_FACILITY = 'DEFAULT';
