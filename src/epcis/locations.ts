// Where EPCIS events say an item was: `bizLocation` (the facility) and
// `readPoint` (the zone, or the threshold it went through), as URIs a
// trading partner understands. Per facility an `epcisLocation` resource may
// name them (SGLN URNs such as urn:epc:id:sgln:0614141.00777.0, GS1 Digital
// Link or any http(s) URL) and give the facility's IANA time zone; whatever
// it leaves out is a URL under EPCIS_LOCATION_BASE_URL (docs/epcis.md).
import * as t from 'io-ts';
import { Name } from '../core/codecs';
import { defineResourceKind } from '../core/resource/kind';

const MAX_URI_LENGTH = 2048;

function uriProblem(u: unknown): string | undefined {
  if (typeof u !== 'string') return 'must be a string (a URI)';
  if (u.length > MAX_URI_LENGTH) return `must be at most ${MAX_URI_LENGTH} characters`;
  if (!/^(https?:\/\/[^\s]+|urn:[A-Za-z0-9][A-Za-z0-9-]{0,31}:[^\s]+)$/.test(u) || !URL.canParse(u)) {
    return `must be an http(s) URL or a URN (e.g. urn:epc:id:sgln:0614141.00777.0), got ${JSON.stringify(u).slice(0, 100)}`;
  }
  return undefined;
}

export const LocationUri = new t.Type<string, string, unknown>(
  'uri',
  (u): u is string => uriProblem(u) === undefined,
  (u, c) => {
    const p = uriProblem(u);
    return p === undefined ? t.success(u as string) : t.failure(u, c, p);
  },
  t.identity,
);

const timeZoneProblem = (u: unknown): string | undefined => {
  if (typeof u !== 'string') return 'must be a string (an IANA time zone such as Europe/Berlin)';
  try {
    new Intl.DateTimeFormat('en', { timeZone: u });
    return undefined;
  } catch {
    return `must be an IANA time zone such as Europe/Berlin, got ${JSON.stringify(u).slice(0, 100)}`;
  }
};

export const TimeZone = new t.Type<string, string, unknown>(
  'timeZone',
  (u): u is string => timeZoneProblem(u) === undefined,
  (u, c) => {
    const p = timeZoneProblem(u);
    return p === undefined ? t.success(u as string) : t.failure(u, c, p);
  },
  t.identity,
);

const UriMap = t.record(Name, LocationUri);

export const EpcisLocationBody = t.intersection([
  t.type({ facility: Name }),
  t.partial({
    bizLocation: t.union([LocationUri, t.null]),
    timeZone: t.union([TimeZone, t.null]),
    zones: t.union([UriMap, t.null]),
    thresholds: t.union([UriMap, t.null]),
  }),
]);
export type EpcisLocationBody = t.TypeOf<typeof EpcisLocationBody>;

/** The stored and returned document: absent members are null / empty. */
export interface EpcisLocation {
  readonly facility: string;
  readonly bizLocation: string | null;
  readonly timeZone: string | null;
  readonly zones: Readonly<Record<string, string>>;
  readonly thresholds: Readonly<Record<string, string>>;
}

export const documentOf = (b: EpcisLocationBody): EpcisLocation => ({
  facility: b.facility,
  bizLocation: b.bizLocation ?? null,
  timeZone: b.timeZone ?? null,
  zones: b.zones ?? {},
  thresholds: b.thresholds ?? {},
});

const EpcisLocationDoc: t.Type<EpcisLocation, unknown, unknown> = t.type({
  facility: t.string,
  bizLocation: t.union([t.string, t.null]),
  timeZone: t.union([t.string, t.null]),
  zones: t.record(t.string, t.string),
  thresholds: t.record(t.string, t.string),
}) as never;
export const epcisLocationKind = defineResourceKind<EpcisLocation>('epcisLocation', 'EpcisLocation', EpcisLocationDoc);

/** The identifiers in force: configured ones, defaults under the base URL for the rest. */
export interface LocationIds {
  bizLocation(facility: string): string;
  zone(facility: string | null, zone: string): string;
  threshold(facility: string, threshold: string): string;
  /** The facility's IANA time zone, undefined for UTC. */
  timeZone(facility: string | null): string | undefined;
}

const seg = (s: string): string => encodeURIComponent(s);

/** `base` ends with `/` (the config adds it). */
export function locationIds(base: string, configured: readonly EpcisLocation[]): LocationIds {
  const byFacility = new Map(configured.map((l) => [l.facility, l]));
  const facilityUrl = (f: string): string => `${base}facilities/${seg(f)}`;
  return {
    bizLocation: (f) => byFacility.get(f)?.bizLocation ?? facilityUrl(f),
    zone: (f, z) => (f === null ? `${base}zones/${seg(z)}` : (byFacility.get(f)?.zones[z] ?? `${facilityUrl(f)}/zones/${seg(z)}`)),
    threshold: (f, th) => byFacility.get(f)?.thresholds[th] ?? `${facilityUrl(f)}/thresholds/${seg(th)}`,
    timeZone: (f) => (f === null ? undefined : (byFacility.get(f)?.timeZone ?? undefined)),
  };
}
