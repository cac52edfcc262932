// Reader definition: the request body as clients send it, and the stored
// document (also the data of its events, so it must round-trip through JSON).
//
// Where the published interface is silent:
// - Only `name` is required. Clients in the field omit most fields for a
//   simple reader; the service fills defaults (groups [], placement numbers 0).
// - `type` is one of the four reader families (reader-types.ts) or null.
// - `placement.floor`: the published interface says "number in use" while zones (and the
//   Java client) use floor strings. Both are accepted and kept as sent (a
//   client reads back the type it wrote); floor 1 and floor "1" are the same
//   floor for the update rules and for matching zones (normalizeFloor).
// - `antennaZones` keys are antenna ids written as decimal strings (JSON keys).
// - `agentIdentifier` and `features` are the service's: ignored on input.
import * as t from 'io-ts';
import { Name, ResourceName } from '../core/codecs';
import { failureReason, FiniteNumber, nullable } from './primitives';
import { ReaderType } from './reader-types';
import { ConnectionBody, ReaderConnection } from './connection';

const isFloor = (u: unknown): u is string | number => typeof u === 'string' || (typeof u === 'number' && Number.isFinite(u));
const Floor = new t.Type<string | number, string | number, unknown>(
  'floor',
  isFloor,
  (u, c) => (isFloor(u) ? t.success(u) : t.failure(u, c, failureReason('floor', 'must be a string or a number', u))),
  t.identity,
);

export const PlacementBody = t.partial(
  {
    x: FiniteNumber,
    y: FiniteNumber,
    z: FiniteNumber,
    yaw: FiniteNumber,
    pitch: FiniteNumber,
    roll: FiniteNumber,
    floor: nullable(Floor),
  },
  'Placement',
);
export type PlacementBody = t.TypeOf<typeof PlacementBody>;

export const ReaderDefinitionBody = t.intersection(
  [
    t.type({ name: ResourceName }),
    t.partial({
      address: nullable(t.string),
      groups: nullable(t.array(t.string)),
      type: nullable(ReaderType),
      placement: nullable(PlacementBody),
      facility: nullable(t.string),
      readerZone: nullable(Name),
      antennaZones: nullable(t.record(t.string, Name)),
      labels: nullable(t.array(t.string)),
      connection: nullable(ConnectionBody),
    }),
  ],
  'ReaderDefinition',
);
export type ReaderDefinitionBody = t.TypeOf<typeof ReaderDefinitionBody>;

export const Placement = t.type(
  {
    x: t.number,
    y: t.number,
    z: t.number,
    yaw: t.number,
    pitch: t.number,
    roll: t.number,
    floor: nullable(t.union([t.string, t.number])),
  },
  'StoredPlacement',
);
export type Placement = t.TypeOf<typeof Placement>;

/**
 * The stored document: every field present, null where unset. `connection`
 * came later: documents stored before it have none (the agent API).
 */
export const ReaderDefinition = t.intersection(
  [
    t.type({
    name: t.string,
    agentIdentifier: t.string,
    address: nullable(t.string),
    groups: t.array(t.string),
    type: nullable(ReaderType),
    placement: nullable(Placement),
    facility: t.string,
    readerZone: nullable(t.string),
    antennaZones: nullable(t.record(t.string, t.string)),
    labels: nullable(t.array(t.string)),
    }),
    t.partial({ connection: nullable(ReaderConnection) }),
  ],
  'StoredReaderDefinition',
);
export type ReaderDefinition = t.TypeOf<typeof ReaderDefinition>;

/** Floors compare as strings: 1 and "1" are one floor; a blank floor is no floor. */
export function normalizeFloor(floor: string | number | null | undefined): string | null {
  if (floor === undefined || floor === null) return null;
  if (typeof floor === 'number') return String(floor);
  return floor.trim() === '' ? null : floor;
}

export function normalizePlacement(p: PlacementBody | null | undefined): Placement | null {
  if (p === undefined || p === null) return null;
  return {
    x: p.x ?? 0,
    y: p.y ?? 0,
    z: p.z ?? 0,
    yaw: p.yaw ?? 0,
    pitch: p.pitch ?? 0,
    roll: p.roll ?? 0,
    // As sent; a blank string is no floor.
    floor: normalizeFloor(p.floor) === null ? null : p.floor!,
  };
}
