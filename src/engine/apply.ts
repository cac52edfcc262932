// Rebuilding engine state from the engine's own output: every ItemChange says
// where an item went, so applying the changes of ENGINE_STREAM in order gives
// back the item views. Pure (no I/O). What the changes do not carry (reads
// since an item's last change, pending compute windows, next LOCATION
// computation times) comes from a snapshot taken before them (restore.ts);
// changes replayed without one lose it (docs/item-processing.md, "Snapshots").
import { viewOf } from './state';
import { ABSENT } from './zones';
import { type EngineState, type ItemChange } from './types';

/**
 * Applies one recorded change to the view of its job (`useOtherJobData` of
 * that job chooses the shared or its private view). The item's
 * lastModifiedTime is the change's observation time; lastSeen is that time
 * too, except for EXPIRED (the item was last seen before it expired).
 */
export function applyChange(state: EngineState, change: ItemChange, useOtherJobData: boolean): EngineState {
  const view = viewOf(state, { jobId: change.jobId, useOtherJobData });
  const prev = view.get(change.epc);
  const time = change.observationTime;
  const lastSeen = change.kind === 'EXPIRED' || change.toZone === ABSENT ? (prev?.lastSeen ?? time) : Math.max(prev?.lastSeen ?? time, time);
  view.set(change.epc, {
    epc: change.epc,
    tid: change.tid ?? prev?.tid ?? null,
    jobId: change.jobId,
    zone: change.toZone,
    floor: change.toFloor,
    facility: change.toFacility,
    x: change.toX,
    y: change.toY,
    lastModifiedTime: time,
    lastSeen,
  });
  return state;
}
