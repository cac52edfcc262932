// Field rules of a reader definition that decoding cannot see: angles in
// range, an address that is a host, antenna ids the reader type has, and
// zone names the facility's current zone map knows. Each returns every
// problem it finds, so one answer lists them all.
import { isIP, isIPv6 } from 'node:net';
import type { FieldError } from '../core/http/errors';
import type { PlacementBody } from './codec';
import { ANTENNA_ID_RULE, isAntennaId, type ReaderType } from './reader-types';

/**
 * Degrees. A turn either way covers every way clients write an angle
 * (0-360 or -180-180); anything past it is a typing mistake, not a direction.
 */
const MAX_ANGLE = 360;

export function placementErrors(p: PlacementBody | null | undefined): FieldError[] {
  const errors: FieldError[] = [];
  for (const axis of ['yaw', 'pitch', 'roll'] as const) {
    const v = p?.[axis];
    if (v !== undefined && Math.abs(v) > MAX_ANGLE) {
      errors.push({ path: `body.placement.${axis}`, reason: `must be between -${MAX_ANGLE} and ${MAX_ANGLE} degrees, got ${v}` });
    }
  }
  return errors;
}

// RFC 1123 host name labels (underscores too: some networks' DHCP names carry them).
const LABEL = /^(?!-)[A-Za-z0-9_-]{1,63}(?<!-)$/;

/** Whether `s` is a host name, an IPv4 address or an IPv6 address (bare or in brackets): what tagtrail can connect to. */
export function isHost(s: string): boolean {
  if (isIP(s) !== 0 || isIPv6(s.replace(/^\[(.*)\]$/, '$1'))) return true;
  const name = s.endsWith('.') ? s.slice(0, -1) : s;
  const labels = name.split('.');
  // A last label of digits only is a mistyped IPv4 address, not a name (no top-level domain is numeric).
  return name.length > 0 && name.length <= 253 && labels.every((l) => LABEL.test(l)) && !/^\d+$/.test(labels[labels.length - 1] ?? '');
}

/** A blank or absent address is "none" (checked where a connection needs one). */
export function addressErrors(address: string | null | undefined): FieldError[] {
  const a = (address ?? '').trim();
  if (a === '' || isHost(a)) return [];
  return [{ path: 'body.address', reason: `must be a host name or an IP address (letters, digits, "-" and "." only; no port, scheme or path), got ${JSON.stringify(address)}` }];
}

/**
 * Antenna ports (or beams) each family has: xArray 52 beams, xSpan 13,
 * xPortal 4 ports (two dual-polarized panels), Speedway-class readers up to
 * 32 ports (four, or 32 through antenna hubs). Polarized forms add 1000/2000.
 */
export const ANTENNAS_OF: Readonly<Record<ReaderType, number>> = { XARRAY: 52, XSPAN: 13, XPORTAL: 4, SPEEDWAY: 32 };

export function antennaIdErrors(antennaZones: Readonly<Record<string, string>> | null | undefined, type: ReaderType | null | undefined): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of Object.keys(antennaZones ?? {})) {
    // JSON object keys are strings; only canonical decimal ids, so "01" and "1" cannot name one antenna twice.
    const n = /^[1-9]\d*$/.test(key) ? Number(key) : NaN;
    if (!isAntennaId(n)) {
      errors.push({ path: `body.antennaZones.${key}`, reason: `key must be an antenna id (${ANTENNA_ID_RULE})` });
      continue;
    }
    const port = n % 1000;
    if (type && port > ANTENNAS_OF[type]) {
      errors.push({ path: `body.antennaZones.${key}`, reason: `a ${type} reader has antennas 1-${ANTENNAS_OF[type]} (polarized: +1000, +2000), not ${n}` });
    }
  }
  return errors;
}

/**
 * Zone names a reader hands its reads to must be zones of its facility's
 * current zone map, when the facility has one: a misspelt name would put
 * items in a zone no map, query or queue filter knows. Without a current
 * zone map there is nothing to compare with (readers are often defined first).
 */
export function zoneNameErrors(
  readerZone: string | null | undefined,
  antennaZones: Readonly<Record<string, string>> | null | undefined,
  mapZones: { readonly name: string; readonly zones: ReadonlySet<string> } | undefined,
): FieldError[] {
  if (mapZones === undefined) return [];
  const known = [...mapZones.zones].sort();
  const reason = (z: string): string => `zone ${JSON.stringify(z)} is not in zone map ${mapZones.name} (the facility's current one: ${known.join(', ') || 'no zones'})`;
  const errors: FieldError[] = [];
  if (readerZone && !mapZones.zones.has(readerZone)) errors.push({ path: 'body.readerZone', reason: reason(readerZone) });
  for (const [antenna, zone] of Object.entries(antennaZones ?? {})) {
    if (!mapZones.zones.has(zone)) errors.push({ path: `body.antennaZones.${antenna}`, reason: reason(zone) });
  }
  return errors;
}
