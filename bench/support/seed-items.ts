// Seeded item changes: ItemsChanged events of FIRST_SEEN changes written
// straight to the engine's stream, as the engine would append them, so a
// benchmark fills the items read model without running readers and engine.
import { encodeEvent } from '../../src/core/events';
import { itemEvents } from '../../src/engine/events';

export const SEED_ZONES = ['Z0', 'Z1', 'Z2', 'Z3', 'Z4', 'Z5', 'Z6', 'Z7', 'Z8', 'Z9'];

const hex = (n: number, width: number): string => n.toString(16).toUpperCase().padStart(width, '0');
/** A 96-bit EPC of a family (first byte after E2) and a serial number. */
export const epcOf = (family: number, n: number): string => `E2${hex(family, 2)}${hex(n, 20)}`;

/**
 * The ItemsChanged event of seeded items `first`…`first + n - 1` (of `total`,
 * observed one ms apart up to `now`), each FIRST_SEEN into a zone of
 * SEED_ZONES in facility DEFAULT, claiming the engine's `inputPosition`.
 */
export function seededItemsEvent(opts: { first: number; n: number; total: number; now: number; jobId: string; inputPosition: string }) {
  const { first, n, total, now, jobId, inputPosition } = opts;
  const changes = Array.from({ length: n }, (_, i) => {
    const k = first + i;
    return {
      kind: 'FIRST_SEEN' as const,
      epc: epcOf(0x30, k),
      tid: null,
      jobId,
      fromZone: 'ABSENT',
      toZone: SEED_ZONES[k % SEED_ZONES.length]!,
      fromFloor: null,
      toFloor: null,
      fromFacility: null,
      toFacility: 'DEFAULT',
      fromX: null,
      fromY: null,
      toX: null,
      toY: null,
      observationTime: now - (total - k),
      reportToDatabaseEnabled: true,
      reportToHistoryEnabled: false,
      reportToMessageQueueEnabled: false,
    };
  });
  return encodeEvent(itemEvents, { type: 'ItemsChanged', data: { inputPosition, at: now, changes } });
}
