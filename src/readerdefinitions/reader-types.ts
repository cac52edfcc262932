// Reader families and antenna ids: shared by reader definitions, threshold
// antenna configurations (`readerType`) and upgrade policies
// (`allowedReaderTypes`, "all four supported reader families").
import * as t from 'io-ts';

/**
 * The four supported reader families. The published interface leaves the values of `type`
 * unshown; these are the identifiers existing clients send (the Java client's
 * enum has XARRAY, SPEEDWAY, XPORTAL; XSPAN is the fourth family). Speedway
 * stands for every LLRP reader without array antennas (R420, R700, ...).
 * A value outside this list is refused rather than stored, because jobs,
 * upgrades and the simulator switch on it.
 */
export const READER_TYPES = ['XARRAY', 'XSPAN', 'XPORTAL', 'SPEEDWAY'] as const;
export type ReaderType = (typeof READER_TYPES)[number];
export const ReaderType = t.keyof({ XARRAY: null, XSPAN: null, XPORTAL: null, SPEEDWAY: null });

/**
 * Antenna ids the interface knows (Limits): ports/beams 1-52, polarized
 * horizontal 1001-1052 and vertical 2001-2052.
 */
export function isAntennaId(n: number): boolean {
  if (!Number.isInteger(n)) return false;
  const port = n >= 2001 ? n - 2000 : n >= 1001 ? n - 1000 : n;
  return port >= 1 && port <= 52;
}

export const ANTENNA_ID_RULE = 'antenna ids are 1-52, or 1001-1052 / 2001-2052 when polarized';
