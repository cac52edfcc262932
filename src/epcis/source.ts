// What of the engine's output becomes an EPCIS event (docs/epcis.md): the
// history records (zone transitions and moves of jobs with
// reportToHistoryEnabled; heartbeats never) and the threshold transitions of
// jobs with reportToDatabaseEnabled, exactly what the history and the
// transitions queries keep. A source is the location-independent fact; the
// EPCIS event is made from it with the location identifiers in force
// (./mapping.ts), so reconfiguring an identifier needs no rebuild. Pure.
import * as t from 'io-ts';
import type { ItemsEvent } from '../engine';
import { ABSENT, writesHistory } from '../engine';
import { epcUriOf } from './epc-uri';

const SourceKind = t.keyof({ FIRST_SEEN: null, ZONE_CHANGE: null, MOVED: null, EXPIRED: null, DOOR_IN: null, DOOR_OUT: null });
export type SourceKind = t.TypeOf<typeof SourceKind>;

/** A codec as well as a type: the EPCIS read model stores sources and decodes them on every read. */
export const EpcisSource = t.readonly(
  t.type({
    /** The ItemsChanged event the fact comes from. */
    eventId: t.string,
    /** Its place in that event: `<index>` of a change, `t<index>` of a threshold transition (as AMQP messageIds name them). */
    ref: t.string,
    kind: SourceKind,
    /** The pure identity URI (or raw URI) of the EPC: ./epc-uri.ts. */
    epc: t.string,
    /** When it happened (epoch ms): the observation or the crossing. */
    time: t.number,
    /** When tagtrail recorded it (epoch ms): the ItemsChanged event's creation. */
    recorded: t.number,
    /** The facility the item is in (an exit: the one it left); null when the change names none. */
    facility: t.union([t.string, t.null]),
    /** The zone where it was seen (an exit: the zone it left); null for a threshold transition. */
    zone: t.union([t.string, t.null]),
    /** The threshold it went through; null for zone changes. */
    threshold: t.union([t.string, t.null]),
  }),
);
export type EpcisSource = t.TypeOf<typeof EpcisSource>;

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
