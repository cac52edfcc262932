// Threshold definitions (docs/interface.md): a named doorway in a
// facility, watched by readers each with an antenna configuration.
//
// Where the published interface is silent:
// - name and readerArrangement are required; `readers` defaults to {}.
// - Every reader must exist and belong to the threshold's facility: a job
//   runs in one facility, so a reader elsewhere could never report for it.
// - Every antennaConfigurationId must exist. Whether its readerType matches
//   the reader's type is not checked (a reader definition's type may be unset).
// - createOrReplace with an `id` replaces that threshold, or creates it under
//   that id; without an id it creates a new one (ids are the service's).
// - Unknown references in a well-formed body are 422; 404 is kept for the
//   resource named by the path.
import * as t from 'io-ts';
import { Name } from '../core/codecs';
import { isLeft, left, right, type Either } from 'fp-ts/Either';
import { badRequest, unprocessable, type ApiError, type FieldError } from '../core/http/errors';
import { resolveFacility } from '../facilities';
import { Integer, IntegerFromString, NonEmptyString, nullable, PositiveInteger } from '../readerdefinitions';
import { ReaderArrangement } from './antenna-configuration';
import { nextId } from './ids';

export const ThresholdReader = t.type({ antennaConfigurationId: Integer }, 'ThresholdReader');
export type ThresholdReader = t.TypeOf<typeof ThresholdReader>;

export const ThresholdBody = t.intersection(
  [
    t.type({ name: Name, readerArrangement: ReaderArrangement }),
    t.partial({
      id: nullable(PositiveInteger),
      facility: nullable(t.string),
      readers: nullable(t.record(NonEmptyString, ThresholdReader)),
    }),
  ],
  'Threshold',
);
export type ThresholdBody = t.TypeOf<typeof ThresholdBody>;

/** Stored. `readers`: reader definition name -> its antenna configuration. */
export const Threshold = t.type(
  {
    id: Integer,
    name: t.string,
    facility: t.string,
    readerArrangement: ReaderArrangement,
    readers: t.record(t.string, ThresholdReader),
  },
  'StoredThreshold',
);
export type Threshold = t.TypeOf<typeof Threshold>;

export const ThresholdParams = t.type({ id: IntegerFromString });
/** `show?embed=antennaConfiguration` puts each reader's configuration beside its id. */
export const ThresholdShowQuery = t.partial({ embed: t.literal('antennaConfiguration') });

export interface ThresholdContext {
  readonly facilityNames: readonly string[];
  readonly readerDefinitions: ReadonlyArray<{ readonly name: string; readonly facility: string }>;
  readonly antennaConfigurationIds: ReadonlyArray<number>;
}

/** `facility` undefined: the threshold's facility is itself wrong, so only whether readers exist is checked. */
function referenceErrors(facility: string | undefined, readers: Threshold['readers'], ctx: ThresholdContext): FieldError[] {
  const errors: FieldError[] = [];
  const facilityOf = new Map(ctx.readerDefinitions.map((r) => [r.name, r.facility]));
  const configIds = new Set(ctx.antennaConfigurationIds);
  for (const [name, reader] of Object.entries(readers)) {
    const readerFacility = facilityOf.get(name);
    if (readerFacility === undefined) {
      errors.push({ path: `body.readers.${name}`, reason: `unknown reader definition ${JSON.stringify(name)}` });
    } else if (facility !== undefined && readerFacility !== facility) {
      errors.push({ path: `body.readers.${name}`, reason: `reader is in facility ${readerFacility}, the threshold in ${facility}` });
    }
    if (!configIds.has(reader.antennaConfigurationId)) {
      errors.push({
        path: `body.readers.${name}.antennaConfigurationId`,
        reason: `unknown antenna configuration ${reader.antennaConfigurationId}`,
      });
    }
  }
  return errors;
}

/** A bad facility is a 400 listing the readers' problems too; readers that do not fit alone are a 422. */
function toThreshold(id: number, body: ThresholdBody, ctx: ThresholdContext): Either<ApiError, Threshold> {
  const facility = resolveFacility(body.facility, ctx.facilityNames, 'body.facility');
  const readers: Threshold['readers'] = {};
  for (const [name, r] of Object.entries(body.readers ?? {})) readers[name] = { antennaConfigurationId: r.antennaConfigurationId };
  const errors = referenceErrors(isLeft(facility) ? undefined : facility.right, readers, ctx);
  if (isLeft(facility)) return left(badRequest(facility.left.message, [...facility.left.errors, ...errors]));
  if (errors.length > 0) return left(unprocessable('The threshold refers to readers or antenna configurations that do not fit', errors));
  return right({ id, name: body.name, facility: facility.right, readerArrangement: body.readerArrangement, readers });
}

/** `POST /thresholds/create`: a body id is ignored. `usedIds`: every threshold id ever assigned. */
export function validateThresholdCreate(body: ThresholdBody, usedIds: Iterable<number>, ctx: ThresholdContext): Either<ApiError, Threshold> {
  return toThreshold(nextId(usedIds), body, ctx);
}

/** `PUT /thresholds/createOrReplace`: the body's id, or a new one. */
export function validateThresholdCreateOrReplace(
  body: ThresholdBody,
  usedIds: Iterable<number>,
  ctx: ThresholdContext,
): Either<ApiError, Threshold> {
  return toThreshold(body.id ?? nextId(usedIds), body, ctx);
}
