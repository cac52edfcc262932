// Which configuration fields each operation takes. One table drives the
// "required" and "not for this operation" checks and the shape of the
// response, so the three cannot disagree.
//
// INVENTORY, LOCATION and NORMAL follow the published interface's field table. For
// THRESHOLD the published interface shows no details; we take the field set of the
// published Java client (ThresholdReaderConfigDetails: searchMode,
// readerMode, session, transmitPowerInDbm, filter, tagPopulationEstimate,
// polarization, channelConfig), and the factory THRESHOLD configuration has
// a search mode (docs/interface.md), so searchMode is optional there.
// The response lists exactly these fields per operation: the Java client
// decodes `configuration` into a class per operation that fails on any
// property it does not know, even a null one.
import type { Operation } from './model';

export const DETAIL_FIELDS = [
  'readerMode',
  'session',
  'searchMode',
  'filter',
  'tagPopulationEstimate',
  'transmitPowerInDbm',
  'polarization',
  'antennas',
  'disabledAntennas',
  'channelConfig',
  'reportConfig',
] as const;
export type DetailField = (typeof DETAIL_FIELDS)[number];

export type FieldUse = 'required' | 'optional';

export const FIELD_USE: Readonly<Record<Operation, Readonly<Partial<Record<DetailField, FieldUse>>>>> = {
  INVENTORY: {
    readerMode: 'required',
    session: 'required',
    searchMode: 'required',
    filter: 'optional',
    tagPopulationEstimate: 'optional',
    transmitPowerInDbm: 'optional',
    polarization: 'optional',
    antennas: 'optional',
    channelConfig: 'optional',
  },
  LOCATION: {
    readerMode: 'required',
    session: 'required',
    filter: 'optional',
    transmitPowerInDbm: 'optional',
    disabledAntennas: 'optional',
  },
  THRESHOLD: {
    readerMode: 'required',
    session: 'required',
    searchMode: 'optional',
    filter: 'optional',
    tagPopulationEstimate: 'optional',
    transmitPowerInDbm: 'optional',
    polarization: 'optional',
    channelConfig: 'optional',
  },
  NORMAL: {
    readerMode: 'required',
    session: 'required',
    filter: 'optional',
    transmitPowerInDbm: 'optional',
    reportConfig: 'optional',
  },
  // Nothing is read for a disabled reader; given fields are ignored, not refused.
  DO_NOTHING: {},
};

const OPERATIONS: readonly Operation[] = ['INVENTORY', 'LOCATION', 'THRESHOLD', 'NORMAL', 'DO_NOTHING'];

/** The operations that take `field`, for "only for operation ..." reasons. */
export function operationsTaking(field: DetailField): Operation[] {
  return OPERATIONS.filter((op) => FIELD_USE[op][field] !== undefined);
}

export function fieldsOf(operation: Operation): DetailField[] {
  return DETAIL_FIELDS.filter((f) => FIELD_USE[operation][f] !== undefined);
}
