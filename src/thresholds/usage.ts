// What refers to antenna configurations and readers, and the delete of an
// antenna configuration with an optional replacement (spec: DELETE
// .../antennaConfiguration/{id}?replacementId=).
import { left, right, type Either } from 'fp-ts/Either';
import { badRequest, conflict, notFound, unprocessable, type ApiError } from '../core/http/errors';
import type { Threshold } from './threshold';

const readersUsing = (th: Threshold, configId: number): string[] =>
  Object.entries(th.readers)
    .filter(([, r]) => r.antennaConfigurationId === configId)
    .map(([name]) => name);

export function thresholdsUsingAntennaConfiguration(configId: number, thresholds: readonly Threshold[]): Threshold[] {
  return thresholds.filter((th) => readersUsing(th, configId).length > 0);
}

/** For refusing (or cascading) the delete of a reader definition a threshold names. */
export function thresholdsUsingReader(readerName: string, thresholds: readonly Threshold[]): Threshold[] {
  return thresholds.filter((th) => Object.hasOwn(th.readers, readerName));
}

export interface AntennaConfigurationDeletion {
  /** The thresholds to store again, now pointing at the replacement. */
  readonly rewritten: Threshold[];
}

/**
 * - 404 when `id` does not exist;
 * - 400 when the replacement is the configuration being deleted;
 * - 422 when the replacement does not exist (even if nothing uses `id`: a
 *   client naming a wrong replacement wants to hear it);
 * - 409 naming the thresholds when `id` is in use and no replacement is given:
 *   a threshold left pointing at nothing would fail when its job starts.
 */
export function deleteAntennaConfiguration(
  id: number,
  replacementId: number | undefined,
  antennaConfigurationIds: readonly number[],
  thresholds: readonly Threshold[],
): Either<ApiError, AntennaConfigurationDeletion> {
  if (!antennaConfigurationIds.includes(id)) return left(notFound(`Antenna configuration ${id} not found`));
  if (replacementId === id) {
    return left(badRequest('An antenna configuration cannot replace itself', [
      { path: 'query.replacementId', reason: `must differ from the deleted id ${id}` },
    ]));
  }
  if (replacementId !== undefined && !antennaConfigurationIds.includes(replacementId)) {
    return left(unprocessable(`Replacement antenna configuration ${replacementId} does not exist`, [
      { path: 'query.replacementId', reason: `unknown antenna configuration ${replacementId}` },
    ]));
  }
  const users = thresholdsUsingAntennaConfiguration(id, thresholds);
  if (replacementId === undefined) {
    if (users.length === 0) return right({ rewritten: [] });
    const names = users.map((th) => `${th.id} (${JSON.stringify(th.name)})`).join(', ');
    return left(conflict(`Antenna configuration ${id} is used by thresholds ${names}; give a replacementId`, users.map((th) => ({
      path: `thresholds.${th.id}`,
      reason: `readers ${readersUsing(th, id).join(', ')} use antenna configuration ${id}`,
    }))));
  }
  const rewritten = users.map((th) => ({
    ...th,
    readers: Object.fromEntries(
      Object.entries(th.readers).map(([name, r]) => [
        name,
        { antennaConfigurationId: r.antennaConfigurationId === id ? replacementId : r.antennaConfigurationId },
      ]),
    ),
  }));
  return right({ rewritten });
}
