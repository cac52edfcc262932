// The item rules shared by both job types: first sighting from ABSENT, zone
// change (one history record), move within a zone, heartbeat, expiry.
import { ABSENT } from './zones';
import { type ChangeKind, type ItemChange, type ItemState, type ItemView, type JobContext, type Position } from './types';

/** Where a never-seen item comes from: ABSENT, nowhere, no coordinates. */
const NOWHERE: Position = { zone: ABSENT, floor: null, facility: null, x: null, y: null };

/**
 * Applies a placement of a read (of `epc` at observation time `time`, epoch
 * ms) to the item and returns the change to report, if any. `moved` decides
 * whether the new position counts as a move from the previous one (the job
 * types differ: any position change for INVENTORY, the minimum movement for
 * LOCATION); an unmoved read is a heartbeat candidate. The read comes as
 * arguments, not an object: this runs once per observation.
 */
export function observe(
  view: ItemView,
  ctx: JobContext,
  epc: string,
  readTid: string | null,
  time: number,
  next: Position,
  moved: (prev: ItemState, next: Position, ctx: JobContext) => boolean,
): ItemChange | undefined {
  const prev = view.get(epc);
  const tid = readTid ?? prev?.tid ?? null;
  if (prev === undefined || prev.zone === ABSENT) {
    if (prev === undefined) return place(view, ctx, epc, tid, time, prev, NOWHERE, next, 'FIRST_SEEN');
    // A read already accounted for before the expiry does not bring the tag back.
    if (time <= prev.lastSeen) return undefined;
    // A late read of an expired tag: it is back, but history never runs backwards.
    return place(view, ctx, epc, tid, Math.max(time, prev.lastModifiedTime), prev, prev, next, 'ZONE_CHANGE');
  }
  // A read older than the last reported state would rewrite history backwards
  // (reports of several readers arrive out of order by a report or two).
  if (time < prev.lastModifiedTime) return undefined;
  if (moved(prev, next, ctx)) {
    const kind = prev.zone !== next.zone || prev.facility !== next.facility ? 'ZONE_CHANGE' : 'MOVED';
    return place(view, ctx, epc, tid, time, prev, prev, next, kind);
  }
  // A read by another job is reported at once so the item's jobId follows it.
  const due = time - prev.lastModifiedTime >= ctx.recipe.tagHeartbeatMs || prev.jobId !== ctx.jobId;
  if (!due) {
    const lastSeen = prev.lastSeen >= time ? prev.lastSeen : time;
    if (lastSeen !== prev.lastSeen || tid !== prev.tid) view.replace(prev, withSeen(prev, tid, lastSeen));
    return undefined;
  }
  return place(view, ctx, epc, tid, time, prev, prev, prev, 'HEARTBEAT');
}

/** `prev` with another tid and lastSeen (an object literal of the same shape: cheaper than a spread, and keeps every item one hidden class). */
function withSeen(prev: ItemState, tid: string | null, lastSeen: number): ItemState {
  return {
    epc: prev.epc,
    tid,
    jobId: prev.jobId,
    zone: prev.zone,
    floor: prev.floor,
    facility: prev.facility,
    x: prev.x,
    y: prev.y,
    lastModifiedTime: prev.lastModifiedTime,
    lastSeen,
  };
}

function place(
  view: ItemView,
  ctx: JobContext,
  epc: string,
  tid: string | null,
  time: number,
  prev: ItemState | undefined,
  from: Position,
  to: Position,
  kind: ChangeKind,
): ItemChange {
  const lastSeen = prev === undefined ? time : Math.max(prev.lastSeen, time);
  const item: ItemState = {
    epc,
    tid,
    jobId: ctx.jobId,
    zone: to.zone,
    floor: to.floor,
    facility: to.facility,
    x: to.x,
    y: to.y,
    lastModifiedTime: time,
    lastSeen,
  };
  if (prev === undefined) view.set(epc, item);
  else view.replace(prev, item);
  return change(kind, epc, tid, ctx, from, to, time);
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
