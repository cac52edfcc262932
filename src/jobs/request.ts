// The job start request as clients send it, and its validation into the
// stored request (defaults applied, facility resolved). Pure.
import * as t from 'io-ts';
import * as E from 'fp-ts/Either';
import { Name, nameSchema } from '../core/codecs';
import { formatIsoDuration, parseIsoDuration } from '../core/duration';
import { badRequest, type ApiError } from '../core/http/errors';
import { resolveFacility } from '../facilities';
import { nullable } from '../readerdefinitions';
import { DEFAULT_START_DELAY, type StoredJobRequest } from './model';

export const JobStartBody = t.intersection(
  [
    t.type({ recipeName: Name }),
    t.partial({
      name: nullable(t.string),
      facility: nullable(Name),
      durationSeconds: nullable(t.number),
      startDelay: nullable(t.string),
      readerGroups: nullable(t.array(t.string)),
      reportToDatabaseEnabled: nullable(t.boolean),
      reportToHistoryEnabled: nullable(t.boolean),
      reportToMessageQueueEnabled: nullable(t.boolean),
      useOtherJobData: nullable(t.boolean),
      reportToFileEnabled: nullable(t.boolean),
    }),
  ],
  'JobStartRequest',
);
export type JobStartBody = t.TypeOf<typeof JobStartBody>;

export const jobStartBodySchema: Record<string, unknown> = {
  type: 'object',
  required: ['recipeName'],
  properties: {
    name: { type: 'string', nullable: true },
    recipeName: nameSchema(),
    facility: { ...nameSchema('required when several facilities exist'), nullable: true },
    durationSeconds: { type: 'integer', minimum: 0, nullable: true, description: '0, null or absent: run until stopped' },
    startDelay: { type: 'string', nullable: true, description: 'ISO 8601 duration, default PT3M' },
    readerGroups: { type: 'array', items: { type: 'string' }, nullable: true },
    reportToDatabaseEnabled: { type: 'boolean', default: true },
    reportToHistoryEnabled: { type: 'boolean', default: true },
    reportToMessageQueueEnabled: { type: 'boolean', default: true },
    useOtherJobData: { type: 'boolean', default: true },
    reportToFileEnabled: { type: 'boolean', description: 'obsolete; no effect' },
  },
};

const field = (name: string, reason: string): ApiError => badRequest(`${name}: ${reason}`, [{ path: `body.${name}`, reason }]);

export function validateJobStart(
  body: JobStartBody,
  facilityNames: readonly string[],
  recipeNames: ReadonlySet<string>,
): E.Either<ApiError, StoredJobRequest> {
  const facility = resolveFacility(body.facility, facilityNames);
  if (E.isLeft(facility)) return facility;
  if (!recipeNames.has(body.recipeName)) return E.left(field('recipeName', `unknown recipe ${JSON.stringify(body.recipeName)}`));
  const duration = body.durationSeconds ?? null;
  if (duration !== null && (!Number.isSafeInteger(duration) || duration < 0)) {
    return E.left(field('durationSeconds', 'must be an integer of at least 0'));
  }
  const delay = parseIsoDuration(body.startDelay ?? DEFAULT_START_DELAY);
  if (E.isLeft(delay)) return E.left(field('startDelay', delay.left));
  return E.right({
    name: body.name ?? null,
    recipeName: body.recipeName,
    facility: facility.right,
    durationSeconds: duration === 0 ? null : duration,
    startDelay: formatIsoDuration(delay.right),
    readerGroups: body.readerGroups ?? null,
    reportToDatabaseEnabled: body.reportToDatabaseEnabled ?? true,
    reportToHistoryEnabled: body.reportToHistoryEnabled ?? true,
    reportToMessageQueueEnabled: body.reportToMessageQueueEnabled ?? true,
    useOtherJobData: body.useOtherJobData ?? true,
    reportToFileEnabled: body.reportToFileEnabled ?? false,
  });
}
