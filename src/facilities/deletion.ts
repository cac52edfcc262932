// Whether a facility may be deleted. Resources that name a facility are not
// deleted with it (that would silently destroy configuration), so deletion is
// refused while anything still refers to the facility.
import * as E from 'fp-ts/Either';
import { conflict, notFound, type ApiError } from '../core/http/errors';

export interface FacilityUsage {
  name: string;
  readerDefinitions: ReadonlyArray<{ name: string; facility: string }>;
  zoneMaps: ReadonlyArray<{ name: string; facility: string }>;
  /** Jobs not yet STOPPED. */
  activeJobs: ReadonlyArray<{ id: string; facility: string }>;
  /** Threshold definitions, by id. */
  thresholds?: ReadonlyArray<{ id: string; facility: string }>;
}

/** How many names of one kind a message lists before summarising the rest. */
const LISTED = 5;

function listNames(kind: string, names: readonly string[]): string | undefined {
  if (names.length === 0) return undefined;
  const shown = names.slice(0, LISTED).map((n) => JSON.stringify(n));
  const more = names.length > LISTED ? ` and ${names.length - LISTED} more` : '';
  return `${kind} ${shown.join(', ')}${more}`;
}

/**
 * A human message naming what uses the facility, e.g.
 * `facility "F" is used by reader definitions "r1", "r2"; active jobs "<id>"`,
 * or undefined when nothing uses it.
 */
export function facilityInUse(usage: FacilityUsage): string | undefined {
  const of = <T extends { facility: string }>(items: ReadonlyArray<T>, key: (item: T) => string): string[] =>
    items.filter((item) => item.facility === usage.name).map(key);
  const parts = [
    listNames('reader definitions', of(usage.readerDefinitions, (r) => r.name)),
    listNames('zone maps', of(usage.zoneMaps, (z) => z.name)),
    listNames('active jobs', of(usage.activeJobs, (j) => j.id)),
    listNames('thresholds', of(usage.thresholds ?? [], (t) => t.id)),
  ].filter((part): part is string => part !== undefined);
  if (parts.length === 0) return undefined;
  return `facility ${JSON.stringify(usage.name)} is used by ${parts.join('; ')}`;
}

/**
 * Decides a facility delete: 404 when it does not exist; 409 when it is the
 * last remaining facility; 409 when something uses it.
 *
 * The last facility is kept because the interface assumes at least one
 * facility always exists (DEFAULT exists from the start, and with a single
 * facility the `facility` field may be omitted everywhere). DEFAULT itself is
 * not special: it may be deleted once another facility exists.
 */
export function decideFacilityDeletion(
  usage: FacilityUsage & { facilityNames: readonly string[] },
): E.Either<ApiError, { name: string }> {
  const name = JSON.stringify(usage.name);
  if (!usage.facilityNames.includes(usage.name)) return E.left(notFound(`facility ${name} not found`));
  if (usage.facilityNames.length === 1) {
    return E.left(conflict(`facility ${name} is the only facility; at least one facility must exist`));
  }
  const inUse = facilityInUse(usage);
  return inUse === undefined ? E.right({ name: usage.name }) : E.left(conflict(inUse));
}
