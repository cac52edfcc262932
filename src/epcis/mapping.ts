// An EPCIS 2.0 ObjectEvent from one source fact (./source.ts) and the
// location identifiers in force (./locations.ts). Pure. The choices (action,
// CBV 2.0 business steps and dispositions, read points, the event id) and
// why are in docs/epcis.md, "Mapping".
import { createHash } from 'node:crypto';
import { isoTime } from '../core/iso-time';
import type { EpcisSource, SourceKind } from './source';
import type { LocationIds } from './locations';

export interface ObjectEvent {
  readonly type: 'ObjectEvent';
  readonly eventID: string;
  readonly eventTime: string;
  readonly eventTimeZoneOffset: string;
  readonly recordTime?: string;
  readonly epcList: readonly string[];
  readonly action: 'OBSERVE';
  readonly bizStep?: string;
  readonly disposition?: string;
  readonly readPoint: { readonly id: string };
  readonly bizLocation?: { readonly id: string };
}

/** CBV 2.0 business step and disposition (bare CBV terms, which the EPCIS JSON-LD context expands) per kind. */
export const CBV_OF: Readonly<Record<SourceKind, { bizStep?: string; disposition: string; leaves: boolean }>> = {
  FIRST_SEEN: { bizStep: 'arriving', disposition: 'in_progress', leaves: false },
  ZONE_CHANGE: { bizStep: 'arriving', disposition: 'in_progress', leaves: false },
  MOVED: { disposition: 'in_progress', leaves: false },
  EXPIRED: { bizStep: 'departing', disposition: 'in_transit', leaves: true },
  DOOR_IN: { bizStep: 'arriving', disposition: 'in_progress', leaves: false },
  DOOR_OUT: { bizStep: 'departing', disposition: 'in_transit', leaves: true },
};

export function objectEventOf(s: EpcisSource, ids: LocationIds, opts: { withRecordTime: boolean }): ObjectEvent {
  const cbv = CBV_OF[s.kind];
  const readPoint = s.threshold !== null && s.facility !== null ? ids.threshold(s.facility, s.threshold) : ids.zone(s.facility, s.zone ?? '');
  return {
    type: 'ObjectEvent',
    eventTime: isoTime(s.time),
    eventTimeZoneOffset: timeZoneOffset(s.time, ids.timeZone(s.facility)),
    ...(opts.withRecordTime ? { recordTime: isoTime(s.recorded) } : {}),
    eventID: eventIdOf(s.eventId, s.ref),
    epcList: [s.epc],
    action: 'OBSERVE',
    ...(cbv.bizStep === undefined ? {} : { bizStep: cbv.bizStep }),
    disposition: cbv.disposition,
    readPoint: { id: readPoint },
    // After an exit the item is in transit: no business location (EPCIS: where it is believed to be afterwards).
    ...(cbv.leaves || s.facility === null ? {} : { bizLocation: { id: ids.bizLocation(s.facility) } }),
  };
}

/** Namespace of tagtrail's name-based event ids (a fixed random UUID). */
const EVENT_ID_NAMESPACE = Buffer.from('5f0c6a2e9d4b4f7a8e3c1b2d7a9e4c61', 'hex');

/**
 * `urn:uuid:` of a name-based (version 5, SHA-1) UUID of `<event id>:<ref>`:
 * the same fact always has the same id, whoever computes it and however
 * often it is sent, so consumers deduplicate by it.
 */
export function eventIdOf(eventId: string, ref: string): string {
  const h = createHash('sha1').update(EVENT_ID_NAMESPACE).update(`${eventId}:${ref}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `urn:uuid:${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** `+HH:MM` / `-HH:MM` of `timeZone` at `ms` (daylight saving included); `+00:00` without a zone. */
export function timeZoneOffset(ms: number, timeZone: string | undefined): string {
  if (timeZone === undefined) return '+00:00';
  let f = offsetFormats.get(timeZone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormats.set(timeZone, f);
  }
  const name = f.formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /^GMT([+-])(\d{2}):?(\d{2})?$/.exec(name);
  return m === null ? '+00:00' : `${m[1]}${m[2]}:${m[3] ?? '00'}`;
}
