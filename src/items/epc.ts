// EPC representations for the items and history queries (`epcFormat`).
//
// EPCs are stored as they come from the reader: hexadecimal, normalised to
// upper case. Decoding to the EPC Tag Data Standard (TDS) URIs is done by the
// `epc-tds` library; this module adds what that library leaves out and the
// interface needs:
// - strictness: the library decodes whatever it is given (a truncated EPC, a
//   company prefix with more digits than its partition allows, an unknown
//   partition). An EPC counts as decodable here only when it has the length
//   of its scheme and re-encodes to exactly the same bits, so "badly encoded"
//   EPCs are left out of PURE_ID/TAG/UPC12 and shown RAW for DEFAULT;
// - alphanumeric fields (SGTIN-198 serial, SGLN-195 extension, GRAI-170
//   serial, GDTI-174 serial, GIAI-202 asset reference) are checked against
//   the GS1 character set 82 and written with the TDS percent-escapes.
// See docs/item-processing.md, "EPC formats and paging".
import TDS from 'epc-tds';

export const EPC_FORMATS = ['PURE_ID', 'TAG', 'RAW', 'UPC12', 'DEFAULT'] as const;
export type EpcFormat = (typeof EPC_FORMATS)[number];

/** The representation `DEFAULT` gives an EPC that decodes (others are RAW). */
export const DEFAULT_DECODED_FORMAT: Exclude<EpcFormat, 'DEFAULT'> = 'PURE_ID';

const HEX = /^[0-9A-Fa-f]+$/;

/** True for a non-empty string of hexadecimal digits (either case, nothing else). */
export function isHex(s: string): boolean {
  return HEX.test(s);
}

/**
 * The stored form of an EPC as input (reader reports, `epc` filters): upper
 * case hex. Undefined when it is not hex. Odd lengths are kept: an EPC is a
 * whole number of 16-bit words, but refusing an odd one here would drop a
 * read; it simply never decodes.
 */
export function normalizeEpc(input: string): string | undefined {
  return isHex(input) ? input.toUpperCase() : undefined;
}

/**
 * Whether the EPC `hex` starts with `prefix`, ignoring case. The prefix is
 * hex digits (nibble-granular, so odd lengths are fine); an empty prefix
 * matches every EPC; a prefix that is not hex matches nothing.
 */
export function epcPrefixMatches(hex: string, prefix: string): boolean {
  if (prefix === '') return true;
  if (!isHex(prefix)) return false;
  return hex.toUpperCase().startsWith(prefix.toUpperCase());
}

type Decoded = ReturnType<typeof TDS.valueOf>;

export interface DecodedEpc {
  /** TDS scheme and size, e.g. `SGTIN-96`, `SSCC-96`, `GIAI-202`. */
  readonly scheme: string;
  /** Pure identity URI, e.g. `urn:epc:id:sgtin:0614141.812345.6789`. */
  readonly pureIdentityUri: string;
  /** Tag URI (with filter and size), e.g. `urn:epc:tag:sgtin-96:3.0614141.812345.6789`. */
  readonly tagUri: string;
  /** SGTIN only: the GTIN-14 with its check digit. */
  readonly gtin14?: string;
}

// GS1 AI encodable character set 82 (TDS Table A-1): the only characters an
// alphanumeric EPC field may hold. Those below must be percent-escaped in URIs.
const CHARSET_82 = /^[!"%&'()*+,\-./0-9:;<=>?A-Z_a-z]*$/;
const URI_ESCAPES: Record<string, string> = { '"': '%22', '%': '%25', '&': '%26', '/': '%2F', '<': '%3C', '>': '%3E', '?': '%3F' };
const escapeUriComponent = (s: string): string => s.replace(/["%&/<>?]/g, (c) => URI_ESCAPES[c] ?? c);

interface Segment {
  readonly start: number;
  readonly end: number;
}

/** Where the 7-bit string field of an alphanumeric scheme lies; undefined for numeric schemes. */
function stringField(epc: Decoded): Segment | undefined {
  if (epc instanceof TDS.Sgtin198) return { start: TDS.Sgtin198.SERIAL_OFFSET, end: TDS.Sgtin198.SERIAL_END };
  if (epc instanceof TDS.Sgln195) return { start: TDS.Sgln195.EXTENSION_OFFSET, end: TDS.Sgln195.EXTENSION_END };
  if (epc instanceof TDS.Grai170) return { start: TDS.Grai170.SERIAL_OFFSET, end: TDS.Grai170.SERIAL_END };
  if (epc instanceof TDS.Gdti174) return { start: TDS.Gdti174.SERIAL_OFFSET, end: TDS.Gdti174.SERIAL_END };
  if (epc instanceof TDS.Giai202) {
    const p = TDS.Giai202.PARTITIONS[epc.getPartition()];
    return p && { start: p.b.start, end: p.b.end };
  }
  return undefined;
}

/**
 * Reads a TDS 7-bit string: characters up to the first zero, everything after
 * it zero, at least one character, all in character set 82. Undefined when
 * the field breaks any of these.
 */
function readString(epc: Decoded, field: Segment): string | undefined {
  let s = '';
  let ended = false;
  let pos = field.start;
  for (; pos + 7 <= field.end; pos += 7) {
    const code = epc.get(pos, pos + 7);
    if (code === 0) ended = true;
    else if (ended) return undefined;
    else s += String.fromCharCode(code);
  }
  if (pos < field.end && epc.get(pos, field.end) !== 0) return undefined;
  return s !== '' && CHARSET_82.test(s) ? s : undefined;
}

function reencodes(epc: Decoded, field: Segment | undefined, hex: string): boolean {
  // The library's URI parser splits on '.' and ':', which an alphanumeric
  // field may contain: the numeric rest is checked with that field replaced
  // by "A" (the library refuses an empty one; the field itself was checked by
  // readString).
  const subject = epc.clone();
  if (field) {
    subject.set(0, field.start, field.end);
    subject.set(0x41, field.start, field.start + 7);
  }
  const again = TDS.fromTagURI(subject.toTagURI()).toHexString();
  const expected = field ? subject.toHexString() : hex.slice(0, again.length);
  return again === expected && (field !== undefined || /^0*$/.test(hex.slice(again.length)));
}

/**
 * Decodes an EPC (hex, any case) to its TDS identity; undefined when it is
 * not a TDS EPC or is badly encoded (wrong length for its scheme, values out
 * of range for its partition, non-zero padding, bad alphanumeric field).
 */
export function decodeEpc(input: string): DecodedEpc | undefined {
  const hex = normalizeEpc(input);
  if (hex === undefined || hex.length % 2 !== 0) return undefined;
  try {
    const epc = TDS.valueOf(hex);
    const bits = epc.getTotalBits();
    // The scheme's bits, padded at most to the next 16-bit word (Gen2 EPC
    // memory is word-addressed: SGTIN-198 arrives as 52 hex digits).
    if (hex.length * 4 < bits || hex.length * 4 > Math.ceil(bits / 16) * 16) return undefined;
    const field = stringField(epc);
    let text: string | undefined;
    if (field) {
      text = readString(epc, field);
      if (text === undefined) return undefined;
      // Padding after the scheme's bits must be zero too.
      if (!/^0*$/.test(hex.slice(epc.toHexString().length))) return undefined;
    }
    if (!reencodes(epc, field, hex)) return undefined;
    let pureIdentityUri = epc.toIdURI();
    let tagUri = epc.toTagURI();
    if (text !== undefined) {
      // The library writes the field raw at the end of both URIs.
      if (!pureIdentityUri.endsWith(text) || !tagUri.endsWith(text)) return undefined;
      pureIdentityUri = pureIdentityUri.slice(0, -text.length) + escapeUriComponent(text);
      tagUri = tagUri.slice(0, -text.length) + escapeUriComponent(text);
    }
    const gtin14 = epc instanceof TDS.Sgtin96 || epc instanceof TDS.Sgtin198 ? epc.getGtin() : undefined;
    return { scheme: epc.getType(), pureIdentityUri, tagUri, ...(gtin14 !== undefined && { gtin14 }) };
  } catch {
    // Unknown header, unknown partition, or a value the library refuses.
    return undefined;
  }
}

/** The 12-digit UPC-A of a GTIN-14 that starts with `00` (same check digit); else undefined. */
export function upc12FromGtin14(gtin14: string): string | undefined {
  return /^00\d{12}$/.test(gtin14) ? gtin14.slice(2) : undefined;
}

/**
 * An EPC in the requested `epcFormat`; undefined means "leave this item out":
 * - RAW: the stored hex, upper case (input of any case is accepted);
 * - PURE_ID / TAG: the TDS pure identity / tag URI, undefined when the EPC
 *   does not decode;
 * - UPC12: SGTIN whose GTIN-14 starts with `00` only, else undefined;
 * - DEFAULT: PURE_ID when the EPC decodes, otherwise RAW (never undefined
 *   for hex input).
 * Input that is not hex is undefined in every format.
 */
export function formatEpc(hex: string, format: EpcFormat): string | undefined {
  const raw = normalizeEpc(hex);
  if (raw === undefined) return undefined;
  switch (format) {
    case 'RAW':
      return raw;
    case 'PURE_ID':
      return decodeEpc(raw)?.pureIdentityUri;
    case 'TAG':
      return decodeEpc(raw)?.tagUri;
    case 'UPC12': {
      const gtin14 = decodeEpc(raw)?.gtin14;
      return gtin14 === undefined ? undefined : upc12FromGtin14(gtin14);
    }
    case 'DEFAULT':
      return formatEpc(raw, DEFAULT_DECODED_FORMAT) ?? raw;
  }
}
