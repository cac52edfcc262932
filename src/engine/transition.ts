// The item rules shared by both job types: first sighting from ABSENT, zone
// change (one history record), move within a zone, heartbeat, expiry.
import { ABSENT, type ChangeKind, type ItemChange, type ItemState, type ItemView, type JobContext, type Position } from './types';

/** Where a never-seen item comes from: ABSENT, nowhere, no coordinates. */
const NOWHERE: Position = { zone: ABSENT, floor: null, facility: null, x: null, y: null };

export interface Read {
  readonly epc: string;
  readonly tid: string | null;
  /** Observation time (epoch ms). */
  readonly time: number;
}

/**
 * Applies a placement of a read to the item and returns the change to report,
 * if any. `moved` decides whether the new position counts as a move from the
 * previous one (the job types differ: any position change for INVENTORY, the
 * minimum movement for LOCATION); an unmoved read is a heartbeat candidate.
 */
export function observe(
  view: ItemView,
  ctx: JobContext,
  read: Read,
  next: Position,
  moved: (prev: ItemState) => boolean,
): ItemChange | undefined {
  const prev = view.get(read.epc);
  const tid = read.tid ?? prev?.tid ?? null;
  if (prev === undefined || prev.zone === ABSENT) {
    if (prev === undefined) return place(view, ctx, { ...read, tid }, NOWHERE, next, 'FIRST_SEEN');
    // A read already accounted for before the expiry does not bring the tag back.
    if (read.time <= prev.lastSeen) return undefined;
    // A late read of an expired tag: it is back, but history never runs backwards.
    const time = Math.max(read.time, prev.lastModifiedTime);
    return place(view, ctx, { ...read, tid, time }, prev, next, 'ZONE_CHANGE');
  }
  // A read older than the last reported state would rewrite history backwards
  // (reports of several readers arrive out of order by a report or two).
  if (read.time < prev.lastModifiedTime) return undefined;
  if (moved(prev)) {
    const kind = prev.zone !== next.zone || prev.facility !== next.facility ? 'ZONE_CHANGE' : 'MOVED';
    return place(view, ctx, { ...read, tid }, prev, next, kind);
  }
  const lastSeen = Math.max(prev.lastSeen, read.time);
  // A read by another job is reported at once so the item's jobId follows it.
  const due = read.time - prev.lastModifiedTime >= ctx.recipe.tagHeartbeatMs || prev.jobId !== ctx.jobId;
  if (!due) {
    view.set(read.epc, { ...prev, tid, lastSeen });
    return undefined;
  }
  return place(view, ctx, { ...read, tid }, prev, prev, 'HEARTBEAT');
}

function place(view: ItemView, ctx: JobContext, read: Read, from: Position, to: Position, kind: ChangeKind): ItemChange {
  const prev = view.get(read.epc);
  const lastSeen = Math.max(prev?.lastSeen ?? read.time, read.time);
  view.set(read.epc, {
    epc: read.epc,
    tid: read.tid,
    jobId: ctx.jobId,
    zone: to.zone,
    floor: to.floor,
    facility: to.facility,
    x: to.x,
    y: to.y,
    lastModifiedTime: read.time,
    lastSeen,
  });
  return change(kind, read.epc, read.tid, ctx, from, to, read.time);
}

/**
 * Expires an item into ABSENT. The observation time is the moment it became
 * absent (last seen + expiry), not the time of the tick that noticed it, so
 * the record does not depend on how often the engine is ticked. The item
 * stays in its facility (toFacility set): it went missing from there.
 */
export function expire(view: ItemView, ctx: JobContext, item: ItemState, expiryMs: number): ItemChange {
  const time = item.lastSeen + expiryMs;
  const to: Position = { zone: ABSENT, floor: null, facility: item.facility, x: null, y: null };
  view.set(item.epc, { ...item, ...to, jobId: ctx.jobId, lastModifiedTime: time });
  return change('EXPIRED', item.epc, item.tid, ctx, item, to, time);
}

function change(kind: ChangeKind, epc: string, tid: string | null, ctx: JobContext, from: Position, to: Position, time: number): ItemChange {
  return {
    kind,
    epc,
    tid,
    jobId: ctx.jobId,
    fromZone: from.zone,
    toZone: to.zone,
    fromFloor: from.floor,
    toFloor: to.floor,
    fromFacility: from.facility,
    toFacility: to.facility,
    fromX: from.x,
    fromY: from.y,
    toX: to.x,
    toY: to.y,
    observationTime: time,
    ...ctx.flags,
  };
}
