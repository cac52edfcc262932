// The request body of recipe create / createOrReplace. Decoding checks each
// field's type and its own range; which fields a type takes and the rules
// between fields and against reader configurations live in fields.ts,
// timing.ts and references.ts.
//
// Unknown fields are ignored, not refused: the codecs are exact, so
// decoding drops them and they never reach the stored recipe. Jackson-based
// clients send every property their classes hold (the Java client's
// INVENTORY recipe always carries locationAggregationModel), and other
// revisions have other fields.
//
// Every optional field accepts null as "not set": responses return unset
// fields as null and clients send back what they read.
import * as t from 'io-ts';
import { Name, ResourceName, Integer, NonNegativeNumber, PositiveInteger, failureReason, nullable } from '../core/codecs';
import { isLeft, isRight, left, right, type Either } from 'fp-ts/Either';
import { parseIsoDuration } from '../core/duration';
import { LocationAggregationModel, RecipeType, ReportingInterval, ZoneModel } from './model';
import { TransitionParameters } from './transition-parameters';

/**
 * Milliseconds of a duration given as an ISO 8601 string (`PT5M`) or as a
 * JSON number of seconds: Jackson writes a java.time.Duration as decimal
 * seconds (`300.000000000`) unless told otherwise, and the Java client does
 * not tell it otherwise.
 */
export function durationMillis(u: unknown): Either<string, number> {
  if (typeof u === 'string') return parseIsoDuration(u);
  // Decimal seconds come with float noise (0.1 * 1000); a millisecond is the unit.
  const ms = typeof u === 'number' && Number.isFinite(u) && u >= 0 ? Math.round(u * 1000) : NaN;
  if (Number.isSafeInteger(ms)) return right(ms);
  return left(failureReason('ISO 8601 duration', 'must be an ISO 8601 duration such as PT5M', u));
}

const isDuration = (u: unknown): u is string | number => isRight(durationMillis(u));

/**
 * A duration as given, checked but not converted: the body codec must not
 * transform, because the route factory decodes the body and validateRecipe
 * decodes its input again (a converted value would be read a second time).
 */
export const DurationValue = new t.Type<string | number, string | number, unknown>(
  'ISO 8601 duration',
  isDuration,
  (u, c) => {
    const parsed = durationMillis(u);
    if (isLeft(parsed)) return t.failure(u, c, parsed.left);
    return typeof u === 'string' || typeof u === 'number' ? t.success(u) : t.failure(u, c, 'must be a string or a number');
  },
  t.identity,
);

export const RecipeBody = t.intersection(
  [
    t.exact(t.type({ name: ResourceName, type: RecipeType })),
    t.exact(
      t.partial({
        readerConfigurationName: nullable(Name),
        readerConfigurations: nullable(t.record(t.string, Name)),
        // LOCATION and INVENTORY
        tagHeartbeatDuration: nullable(DurationValue),
        tagHeartbeatMinutes: nullable(PositiveInteger), // deprecated; >= 1 is the PT1M minimum
        tagExpiryDuration: nullable(DurationValue),
        computeWindow: nullable(PositiveInteger),
        reportingInterval: nullable(ReportingInterval),
        // LOCATION
        minimumMovementInMeters: nullable(NonNegativeNumber),
        // THRESHOLD
        thresholdIds: nullable(t.array(Integer)),
        profile: nullable(t.string),
        iterationDataLogEnabled: nullable(t.boolean),
        transitionParameters: nullable(TransitionParameters),
        // LLRP (deprecated); locationAggregationModel also INVENTORY (Java client)
        presencePipelineEnabled: nullable(t.boolean),
        locationReportingEnabled: nullable(t.boolean),
        zoneModel: nullable(ZoneModel),
        locationUpdateIntervalInSeconds: nullable(NonNegativeNumber),
        historyWindowSizeInCycles: nullable(NonNegativeNumber),
        computeWindowSizeInCycles: nullable(NonNegativeNumber),
        computeWindowTimeInSeconds: nullable(NonNegativeNumber),
        locationAggregationModel: nullable(LocationAggregationModel),
      }),
    ),
  ],
  'Recipe',
);
export type RecipeBody = t.TypeOf<typeof RecipeBody>;
