// The single/several-facility rule of the interface: with one facility the
// `facility` field of job start, zone map and reader definition bodies may be
// omitted (it means the only facility); with several it is required.
import * as E from 'fp-ts/Either';
import { badRequest, type ApiError } from '../core/http/errors';

export const FACILITY_REQUIRED_REASON = 'required when more than one facility exists';

/**
 * Resolves the `facility` field of a request body to an existing facility name.
 * `null` counts as omitted: clients that serialise unset fields send null.
 * An empty string is not omitted: it names a facility that cannot exist.
 * @param facilityNames every existing facility
 * @param path the field path used in `errors[]`
 */
export function resolveFacility(
  input: string | undefined | null,
  facilityNames: readonly string[],
  path = 'body.facility',
): E.Either<ApiError, string> {
  if (input === undefined || input === null) {
    const [only, ...others] = facilityNames;
    if (only === undefined) {
      // Cannot happen while the last facility may not be deleted; said
      // clearly rather than crashing if that invariant is ever broken.
      const reason = 'no facility exists; create one first';
      return E.left(badRequest(`facility: ${reason}`, [{ path, reason }]));
    }
    if (others.length === 0) return E.right(only);
    return E.left(
      badRequest(`facility is ${FACILITY_REQUIRED_REASON}`, [{ path, reason: FACILITY_REQUIRED_REASON }]),
    );
  }
  if (facilityNames.includes(input)) return E.right(input);
  const reason = `unknown facility ${JSON.stringify(input)}`;
  return E.left(badRequest(reason, [{ path, reason }]));
}
