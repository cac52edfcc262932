// What the items and history read models store, and how one ItemChange turns
// into them. Pure: the projection does the I/O.
import type * as t from 'io-ts';
import type { ItemChangeStrictCodec } from '../../src/engine/events';
import { isoTime } from '../../src/core/iso-time';

export type ItemChange = t.TypeOf<typeof ItemChangeStrictCodec>;

/** The interface's Item. */
export interface Item {
  readonly epc: string;
  readonly tagId: string;
  readonly jobId: string;
  readonly xLocation: number | null;
  readonly yLocation: number | null;
  readonly zLocation: number;
  readonly zone: string;
  readonly floor: string | null;
  readonly facility: string | null;
  readonly presenceConfidence: 'HIGH';
  readonly lastModifiedTime: string;
}

export interface StoredItem {
  readonly item: Item;
  /** lastModifiedTime in epoch ms (for the time filters). */
  readonly ms: number;
  /** Where the last applied change sits in the log: `<commit, 20 digits>:<index, 6 digits>`; older changes are ignored. */
  readonly at: string;
}

/** The interface's ItemEvent (a history record). */
export interface ItemEvent {
  readonly epc: string;
  readonly tagId: string;
  readonly fromZone: string;
  readonly toZone: string;
  readonly fromFloor: string | null;
  readonly toFloor: string | null;
  readonly fromFacility: string | null;
  readonly toFacility: string | null;
  readonly fromX: number | null;
  readonly toX: number | null;
  readonly fromY: number | null;
  readonly toY: number | null;
  readonly observationTime: string;
}

export interface StoredHistory {
  readonly record: ItemEvent;
  /** The job that reported the change (the `jobId` filter; not part of ItemEvent). */
  readonly jobId: string;
}

export const changeOrder = (commit: bigint, index: number): string =>
  `${commit.toString().padStart(20, '0')}:${index.toString().padStart(6, '0')}`;

/** The item after `change`. EXPIRED leaves the item listed in zone ABSENT (facility kept, floor and coordinates null). */
export function itemAfter(change: ItemChange): Item {
  return {
    epc: change.epc.toUpperCase(),
    tagId: change.tid ?? '',
    jobId: change.jobId,
    xLocation: change.toX,
    yLocation: change.toY,
    zLocation: 0,
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
    record: {
      epc: change.epc.toUpperCase(),
      tagId: change.tid ?? '',
      fromZone: change.fromZone,
      toZone: change.toZone,
      fromFloor: change.fromFloor,
      toFloor: change.toFloor,
      fromFacility: change.fromFacility,
      toFacility: change.toFacility,
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
