// What the items and history read models store, and how one ItemChange turns
// into them. Pure: the projection does the I/O.
import * as t from 'io-ts';
import { isoTime } from '../core/iso-time';
import { decodeStored } from '../core/stored-json';
import { ABSENT, writesHistory, type ItemChange } from '../engine';

// Codecs as well as types: what these read models hold is decoded on every
// read (src/core/stored-json.ts). t.type checks in place, no copy.
const NumberOrNull = t.union([t.number, t.null]);
const StringOrNull = t.union([t.string, t.null]);

/** The interface's Item. */
export const Item = t.readonly(
  t.type({
    epc: t.string,
    tagId: t.string,
    jobId: t.string,
    xLocation: NumberOrNull,
    yLocation: NumberOrNull,
    /** 0 while the item has coordinates (locations are on the floor plane), null with them. */
    zLocation: NumberOrNull,
    zone: t.string,
    floor: StringOrNull,
    facility: StringOrNull,
    presenceConfidence: t.literal('HIGH'),
    lastModifiedTime: t.string,
  }),
);
export type Item = t.TypeOf<typeof Item>;

/** The interface's ItemEvent (a history record). */
export const ItemEvent = t.readonly(
  t.type({
    epc: t.string,
    tagId: t.string,
    fromZone: t.string,
    toZone: t.string,
    fromFloor: StringOrNull,
    toFloor: StringOrNull,
    fromFacility: StringOrNull,
    toFacility: StringOrNull,
    fromX: NumberOrNull,
    toX: NumberOrNull,
    fromY: NumberOrNull,
    toY: NumberOrNull,
    observationTime: t.string,
  }),
);
export type ItemEvent = t.TypeOf<typeof ItemEvent>;

export const StoredHistory = t.readonly(
  t.intersection([
    t.type({
      record: ItemEvent,
      /** The job that reported the change (the `jobId` filter; not part of ItemEvent). */
      jobId: t.string,
    }),
    /** A move that is no zone transition (shown only with zoneTransitionsOnly=false); absent otherwise. */
    t.partial({ moved: t.literal(true) }),
  ]),
);
export type StoredHistory = t.TypeOf<typeof StoredHistory>;

/** The history record `id` (a StoredValueError when it does not decode). */
export const decodeStoredHistory = (id: string, raw: string): StoredHistory => decodeStored(StoredHistory, raw, `items read model: history record ${id}`);

/**
 * Changes the history keeps: the zone transitions (FIRST_SEEN, ZONE_CHANGE,
 * EXPIRED), and MOVED, a move inside a zone (at least minimumMovementInMeters
 * for LOCATION jobs) that zoneTransitionsOnly=false shows, as item queues
 * with that filter carry it. HEARTBEAT never: the item did not move.
 */
export const keptInHistory = (kind: ItemChange['kind']): boolean => writesHistory(kind) || kind === 'MOVED';

/**
 * The facility a change goes to, as records show it: none when the item
 * goes ABSENT (it is nowhere, as a first sighting comes from nowhere), so a
 * toFacility filter means "arrived in or moved inside" and an exit matches
 * fromFacility. The item itself stays listed in its facility (itemAfter).
 */
export const recordToFacility = (change: ItemChange): string | null => (change.toZone === ABSENT ? null : change.toFacility);

/** The first part of changeOrder: a commit position, padded so that text order is log order. */
export const commitOrder = (commit: bigint): string => commit.toString().padStart(20, '0');

/** Where a change sits in the log, as text that sorts in log order (`<commit>:<index>`, see commitOrder). */
export const changeOrder = (commit: string, index: number): string => `${commit}:${index.toString().padStart(6, '0')}`;

/** The item after `change`. EXPIRED leaves the item listed in zone ABSENT (facility kept, floor and coordinates null). */
export function itemAfter(change: ItemChange): Item {
  return {
    epc: change.epc.toUpperCase(),
    tagId: change.tid ?? '',
    jobId: change.jobId,
    xLocation: change.toX,
    yLocation: change.toY,
    zLocation: change.toX === null || change.toY === null ? null : 0,
    zone: change.toZone,
    floor: change.toFloor,
    facility: change.toFacility,
    presenceConfidence: 'HIGH',
    lastModifiedTime: isoTime(change.observationTime),
  };
}

export function historyRecordOf(change: ItemChange): StoredHistory {
  return {
    jobId: change.jobId,
    ...(change.kind === 'MOVED' ? { moved: true as const } : {}),
    record: {
      epc: change.epc.toUpperCase(),
      tagId: change.tid ?? '',
      fromZone: change.fromZone,
      toZone: change.toZone,
      fromFloor: change.fromFloor,
      toFloor: change.toFloor,
      fromFacility: change.fromFacility,
      toFacility: recordToFacility(change),
      fromX: change.fromX,
      toX: change.toX,
      fromY: change.fromY,
      toY: change.toY,
      observationTime: isoTime(change.observationTime),
    },
  };
}

/** The index sets an item belongs to (besides `all` and `time`). */
export function indexKeysOf(item: Item, k: { facility(n: string): string; zone(n: string): string; job(id: string): string }): string[] {
  return [...(item.facility === null ? [] : [k.facility(item.facility)]), k.zone(item.zone), k.job(item.jobId)];
}
