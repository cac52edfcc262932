// The rules that relate configuration fields to the operation and to each
// other. Each returns every problem it finds, so one 400 lists them all.
import type { FieldError } from '../core/http/errors';
import type { ReaderConfigDetailsBody } from './codec';
import { DETAIL_FIELDS, FIELD_USE, operationsTaking } from './fields';
import type { ActiveOperation } from './model';
import { given, type Given } from '../core/given';

export const DETAILS_PATH = 'body.configuration';

export type GivenDetails = Given<ReaderConfigDetailsBody>;

/** Required fields present, fields of other operations absent. */
export function operationFieldErrors(operation: ActiveOperation, d: GivenDetails): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of DETAIL_FIELDS) {
    const use = FIELD_USE[operation][field];
    const present = d[field] !== undefined;
    const path = `${DETAILS_PATH}.${field}`;
    if (use === 'required' && !present) {
      errors.push({ path, reason: `is required for operation ${operation}` });
    } else if (use === undefined && present) {
      errors.push({ path, reason: `applies only to operation ${operationsTaking(field).join(' or ')}, not ${operation}` });
    }
  }
  return errors;
}

/** LOCATION readers need a session whose flags persist between rounds (spec: 2 or 3). */
export function sessionErrors(operation: ActiveOperation, d: GivenDetails): FieldError[] {
  if (operation !== 'LOCATION' || d.session === undefined || d.session >= 2) return [];
  return [{ path: `${DETAILS_PATH}.session`, reason: `must be 2 or 3 for operation LOCATION, got ${d.session}` }];
}

const PLAIN_IDS = { from: 1, to: 52 } as const;
const POLARIZED_IDS = [PLAIN_IDS, { from: 1001, to: 1052 }, { from: 2001, to: 2052 }] as const;

/**
 * Antenna ids are 1-52. With polarization on, the reader reports the
 * polarized ids (horizontal 1001-1052, vertical 2001-2052), and a plain id
 * still names the port with both polarizations, so all three ranges are
 * accepted. Without polarization a polarized id names nothing: refused.
 */
export function isAntennaId(id: number, polarized: boolean): boolean {
  const ranges = polarized ? POLARIZED_IDS : [PLAIN_IDS];
  return ranges.some((r) => id >= r.from && id <= r.to);
}

export function antennaErrors(d: GivenDetails): FieldError[] {
  const errors: FieldError[] = [];
  const polarized = d.polarization === true;
  const check = (field: 'antennas' | 'disabledAntennas', ids: readonly number[]): void => {
    ids.forEach((id, i) => {
      if (isAntennaId(id, polarized)) return;
      const allowed = polarized ? '1-52, 1001-1052 or 2001-2052' : '1-52 (1001-1052 and 2001-2052 need polarization)';
      errors.push({ path: `${DETAILS_PATH}.${field}.${i}`, reason: `must be an antenna id ${allowed}, got ${id}` });
    });
  };
  if (d.antennas !== undefined) {
    // An empty list would leave the reader with nothing to read with;
    // omitting the field is how a client says "every antenna".
    if (d.antennas.length === 0) {
      errors.push({
        path: `${DETAILS_PATH}.antennas`,
        reason: 'must list at least one antenna (omit it to use every antenna)',
      });
    }
    check('antennas', d.antennas);
  }
  // An empty disabled list is natural: nothing disabled.
  if (d.disabledAntennas !== undefined) check('disabledAntennas', d.disabledAntennas);
  return errors;
}

/**
 * A channel configuration must configure something: a fixed channel
 * (fixed-frequency regions) or a hop table (hopping regions). Both may be
 * given; the reader uses the one its region needs.
 */
export function channelConfigErrors(d: GivenDetails): FieldError[] {
  if (d.channelConfig === undefined) return [];
  const c = given(d.channelConfig);
  const path = `${DETAILS_PATH}.channelConfig`;
  if (c.channelIndex === undefined && c.txFrequenciesInMhz === undefined) {
    return [{ path, reason: 'needs channelIndex or txFrequenciesInMhz' }];
  }
  if (c.txFrequenciesInMhz !== undefined && c.txFrequenciesInMhz.length === 0) {
    return [{ path: `${path}.txFrequenciesInMhz`, reason: 'must list at least one frequency' }];
  }
  return [];
}

/**
 * Transmit power no region lets a reader emit is a typing mistake (99 dBm is
 * 8 kW): refused here. 33 dBm is the highest setting of any supported reader
 * (the 1 W conducted limit of FCC and of ETSI's upper band, plus the cable
 * loss readers allow for); what a reader's own power table and region allow
 * below that is checked against the reader when a job starts (docs/readers.md).
 */
export const POWER_RANGE_DBM = { min: 0, max: 33 } as const;

export function powerErrors(d: GivenDetails): FieldError[] {
  const p = d.transmitPowerInDbm;
  if (p === undefined || (p >= POWER_RANGE_DBM.min && p <= POWER_RANGE_DBM.max)) return [];
  return [{ path: `${DETAILS_PATH}.transmitPowerInDbm`, reason: `must be between ${POWER_RANGE_DBM.min} and ${POWER_RANGE_DBM.max} dBm (no region permits more), got ${p}` }];
}
