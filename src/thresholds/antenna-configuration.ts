// Threshold antenna configurations: which antennas of a reader look to the
// inbound side, which to the outbound side and which are ignored. Values the
// published interface leaves unshown come from what clients send (docs/interface.md: side LEFT|RIGHT, the four
// arrangements, the `ignored` list).
//
// Where the published interface is silent:
// - name, side, readerType and readerArrangement are required: a threshold
//   cannot interpret reads without them. in/out/ignored default to [].
// - An `id` in a create body is ignored (the service assigns ids); in a
//   replace body it must equal the id of the path.
// - Names need not be unique: configurations are identified by id.
import * as t from 'io-ts';
import { Name } from '../core/codecs';
import { left, right, type Either } from 'fp-ts/Either';
import { badRequest, type ApiError, type FieldError } from '../core/http/errors';
import { Integer, IntegerFromString, nullable, ANTENNA_ID_RULE, isAntennaId, ReaderType } from '../readerdefinitions';
import { nextId } from './ids';

export const ThresholdSide = t.keyof({ LEFT: null, RIGHT: null });
export type ThresholdSide = t.TypeOf<typeof ThresholdSide>;

export const ReaderArrangement = t.keyof({ SIDE_BY_SIDE: null, OVERHEAD: null, OVERHEAD_OFFSET: null, CUSTOM: null });
export type ReaderArrangement = t.TypeOf<typeof ReaderArrangement>;

export const AntennaRef = t.type({ antennaId: Integer }, 'AntennaRef');
export type AntennaRef = t.TypeOf<typeof AntennaRef>;

const ANTENNA_LISTS = ['in', 'out', 'ignored'] as const;
type AntennaList = (typeof ANTENNA_LISTS)[number];

export const AntennaConfigurationBody = t.intersection(
  [
    t.type({ name: Name, side: ThresholdSide, readerType: ReaderType, readerArrangement: ReaderArrangement }),
    t.partial({
      id: nullable(Integer),
      in: nullable(t.array(AntennaRef)),
      out: nullable(t.array(AntennaRef)),
      ignored: nullable(t.array(AntennaRef)),
    }),
  ],
  'AntennaConfiguration',
);
export type AntennaConfigurationBody = t.TypeOf<typeof AntennaConfigurationBody>;

/** Stored and returned. */
export const AntennaConfiguration = t.type(
  {
    id: Integer,
    name: t.string,
    side: ThresholdSide,
    readerType: ReaderType,
    readerArrangement: ReaderArrangement,
    in: t.array(AntennaRef),
    out: t.array(AntennaRef),
    ignored: t.array(AntennaRef),
  },
  'StoredAntennaConfiguration',
);
export type AntennaConfiguration = t.TypeOf<typeof AntennaConfiguration>;

/** `{antennaConfigurationID}` path parameter. */
export const AntennaConfigurationParams = t.type({ antennaConfigurationID: IntegerFromString });
/** Query of the delete: `replacementId` optional. */
export const DeleteAntennaConfigurationQuery = t.partial({ replacementId: IntegerFromString });

/**
 * An antenna is on one side only: listed in two of in/out/ignored (or twice
 * in one) it would count a crossing in both directions at once.
 */
function antennaErrors(body: AntennaConfigurationBody): FieldError[] {
  const errors: FieldError[] = [];
  const firstSeen = new Map<number, string>();
  for (const list of ANTENNA_LISTS) {
    (body[list] ?? []).forEach((ref, i) => {
      const path = `body.${list}.${i}.antennaId`;
      if (!isAntennaId(ref.antennaId)) errors.push({ path, reason: `${ref.antennaId} is not an antenna id (${ANTENNA_ID_RULE})` });
      const seen = firstSeen.get(ref.antennaId);
      if (seen !== undefined) errors.push({ path, reason: `antenna ${ref.antennaId} is already listed at ${seen}` });
      else firstSeen.set(ref.antennaId, path);
    });
  }
  return errors;
}

function toConfiguration(id: number, body: AntennaConfigurationBody): Either<ApiError, AntennaConfiguration> {
  const errors = antennaErrors(body);
  if (errors.length > 0) return left(badRequest('An antenna may appear in only one of in, out and ignored, once', errors));
  const list = (name: AntennaList): AntennaRef[] => (body[name] ?? []).map((r) => ({ antennaId: r.antennaId }));
  return right({
    id,
    name: body.name,
    side: body.side,
    readerType: body.readerType,
    readerArrangement: body.readerArrangement,
    in: list('in'),
    out: list('out'),
    ignored: list('ignored'),
  });
}

/**
 * `POST /thresholds/antennaConfiguration`. `usedIds`: every id ever
 * assigned, deleted ones included, so an id is never reused for a
 * different configuration (see nextId).
 */
export function validateAntennaConfigurationCreate(
  body: AntennaConfigurationBody,
  usedIds: Iterable<number>,
): Either<ApiError, AntennaConfiguration> {
  return toConfiguration(nextId(usedIds), body);
}

/** `PUT /thresholds/antennaConfiguration/{id}`. Whether `pathId` exists is the caller's check (404). */
export function validateAntennaConfigurationReplace(
  pathId: number,
  body: AntennaConfigurationBody,
): Either<ApiError, AntennaConfiguration> {
  if (body.id !== undefined && body.id !== null && body.id !== pathId) {
    return left(badRequest(`The id in the body (${body.id}) differs from the id in the path (${pathId})`, [
      { path: 'body.id', reason: `must be ${pathId}, the id in the path` },
    ]));
  }
  return toConfiguration(pathId, body);
}
