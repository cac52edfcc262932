// What the items and history read models store, and how one ItemChange turns
// into them. Pure: the projection does the I/O.
import { isoTime } from '../core/iso-time';
import { ABSENT, writesHistory, type ItemChange } from '../engine';

/** The interface's Item. */
export interface Item {
  readonly epc: string;
  readonly tagId: string;
  readonly jobId: string;
  readonly xLocation: number | null;
  readonly yLocation: number | null;
  /** 0 while the item has coordinates (locations are on the floor plane), null with them. */
  readonly zLocation: number | null;
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
  /** A move that is no zone transition (shown only with zoneTransitionsOnly=false); absent otherwise. */
  readonly moved?: true;
}

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
