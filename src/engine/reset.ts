// Item reset (docs/support.md, "Item reset"): the engine forgets every item of
// one facility. Pure and in place like the rest of the state (state.ts). The
// same function runs when the engine handles an ItemsResetRequested and when
// a restore replays the ItemsChanged that recorded it (restore.ts), so a
// replay or a snapshot taken before the reset gives the state the live engine
// had after it.
import type { EngineState, ItemView } from './types';

/**
 * Drops the items whose facility is `facility` from the shared view and every
 * isolated view (through delete, which keeps the expiry index right), and the
 * pending reads of that facility's jobs, so a tag of the facility read again
 * starts a new chain from ABSENT. The jobs themselves keep running.
 * Returns the number of items dropped.
 */
export function resetFacility(state: EngineState, facility: string): number {
  let dropped = dropFrom(state.shared, facility);
  for (const view of state.isolated.values()) dropped += dropFrom(view, facility);
  for (const runtime of state.jobs.values()) {
    if (runtime.ctx.facility !== facility) continue;
    runtime.candidates.clear();
    runtime.samples.clear();
    runtime.nextComputeAt = undefined;
  }
  return dropped;
}

function dropFrom(view: ItemView, facility: string): number {
  const epcs: string[] = [];
  for (const [epc, item] of view) if (item.facility === facility) epcs.push(epc);
  for (const epc of epcs) view.delete(epc);
  return epcs.length;
}
