// What of the engine's output becomes an EPCIS event (docs/epcis.md): the
// history records (zone transitions and moves of jobs with
// reportToHistoryEnabled; heartbeats never) and the threshold transitions of
// jobs with reportToDatabaseEnabled, exactly what the history and the
// transitions queries keep. A source is the location-independent fact; the
// EPCIS event is made from it with the location identifiers in force
// (./mapping.ts), so reconfiguring an identifier needs no rebuild. Pure.
import type { ItemsEvent } from '../engine';
import { ABSENT, writesHistory } from '../engine';
import { epcUriOf } from './epc-uri';

export type SourceKind = 'FIRST_SEEN' | 'ZONE_CHANGE' | 'MOVED' | 'EXPIRED' | 'DOOR_IN' | 'DOOR_OUT';

export interface EpcisSource {
  /** The ItemsChanged event the fact comes from. */
  readonly eventId: string;
  /** Its place in that event: `<index>` of a change, `t<index>` of a threshold transition (as AMQP messageIds name them). */
  readonly ref: string;
  readonly kind: SourceKind;
  /** The pure identity URI (or raw URI) of the EPC: ./epc-uri.ts. */
  readonly epc: string;
  /** When it happened (epoch ms): the observation or the crossing. */
  readonly time: number;
  /** When tagtrail recorded it (epoch ms): the ItemsChanged event's creation. */
  readonly recorded: number;
  /** The facility the item is in (an exit: the one it left); null when the change names none. */
  readonly facility: string | null;
  /** The zone where it was seen (an exit: the zone it left); null for a threshold transition. */
  readonly zone: string | null;
  /** The threshold it went through; null for zone changes. */
  readonly threshold: string | null;
}

export interface SourceEvent {
  readonly id: string;
  /** When the event was recorded (epoch ms). */
  readonly created: number;
  readonly data: Extract<ItemsEvent, { type: 'ItemsChanged' }>['data'];
}

/** Every EPCIS-worthy fact of one ItemsChanged, in the order the event holds them (changes, then transitions). */
export function sourcesOf(e: SourceEvent): EpcisSource[] {
  const out: EpcisSource[] = [];
  e.data.changes.forEach((c, i) => {
    // What the history keeps: zone transitions and moves inside a zone, never heartbeats.
    if (!c.reportToHistoryEnabled || c.kind === 'HEARTBEAT' || !(writesHistory(c.kind) || c.kind === 'MOVED')) return;
    const exit = c.toZone === ABSENT;
    out.push({
      eventId: e.id,
      ref: String(i),
      kind: c.kind,
      epc: epcUriOf(c.epc),
      time: c.observationTime,
      recorded: e.created,
      facility: exit ? c.fromFacility : c.toFacility,
      zone: exit ? c.fromZone : c.toZone,
      threshold: null,
    });
  });
  (e.data.transitions ?? []).forEach((t, i) => {
    if (!t.reportToDatabaseEnabled) return;
    out.push({
      eventId: e.id,
      ref: `t${i}`,
      kind: t.destination === 'IN' ? 'DOOR_IN' : 'DOOR_OUT',
      epc: epcUriOf(t.epc),
      time: t.observationTime,
      recorded: e.created,
      facility: t.facility,
      zone: null,
      threshold: t.thresholdName,
    });
  });
  return out;
}
