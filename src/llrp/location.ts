// Impinj's LLRP extensions (vendor 25882) for readers that compute tag
// locations themselves (xArray, xSpan): the reader's placement in
// SET_READER_CONFIG, a ROSpec holding an ImpinjLISpec instead of an AISpec and
// ImpinjLocationReporting in its ROReportSpec, and the locations reported as
// ImpinjExtendedTagInformation at the RO_ACCESS_REPORT's top level. Subtypes
// come from the IMPINJ table (constants.ts, checked against Impinj's
// definition file); the layouts below are that file's.
import { IMPINJ, MSG, P } from './constants';
import { encodeMessage } from './frame';
import { customParam, encodeParams, LlrpDecodeError, type ParamInput } from './params';

export interface LocationPlan {
  readonly modeIndex: number;
  readonly session: number;
  /** How often the reader reports each tag's location (ImpinjLocationReporting). */
  readonly reportIntervalSeconds: number;
  /** The reader's place in the facility (the definition's placement), metres and degrees. */
  readonly placement: { readonly x: number; readonly y: number; readonly z: number; readonly yawDegrees: number };
}

const be = (size: 1 | 2 | 4, n: number, signed = false): Buffer => {
  const b = Buffer.alloc(size);
  if (size === 1) b.writeUInt8(n & 0xff);
  else if (size === 2 && signed) b.writeInt16BE(Math.round(n));
  else if (size === 2) b.writeUInt16BE(n & 0xffff);
  else if (signed) b.writeInt32BE(Math.round(n));
  else b.writeUInt32BE(n >>> 0);
  return b;
};
const impinj = (subtype: number, data: Buffer, params: readonly ParamInput[] = []): ParamInput => customParam(IMPINJ.VENDOR, subtype, data, params);

/** The ImpinjLISpec that stands in the ROSpec where an AISpec would. */
export function liSpec(p: LocationPlan): ParamInput {
  return impinj(IMPINJ.LISpec, Buffer.alloc(0), [
    // A motion window of 2 s and tags aged out after 20 s unseen: Impinj's defaults in Octane.
    impinj(IMPINJ.LocationConfig, Buffer.concat([be(1, 2), be(2, 20)])),
    impinj(IMPINJ.C1G2LocationConfig, Buffer.concat([be(2, p.modeIndex), be(1, (p.session & 0x3) << 6)])),
  ]);
}

/**
 * ImpinjLocationReporting, in the ROSpec's ROReportSpec (the only place the
 * definition allows it): a report every reportIntervalSeconds; updates,
 * entries and exits on.
 */
export function locationReporting(p: LocationPlan): ParamInput {
  return impinj(IMPINJ.LocationReporting, Buffer.concat([be(2, p.reportIntervalSeconds), be(1, 0b1110_0000)]));
}

/** SET_READER_CONFIG (no reset) with the reader's placement: where it stands in the facility, so it reports facility coordinates. */
export function setLocationConfig(id: number, p: LocationPlan): Buffer {
  const placement = Buffer.concat([be(2, p.placement.z * 100, true), be(4, p.placement.x * 100, true), be(4, p.placement.y * 100, true), be(2, p.placement.yawDegrees, true)]);
  return encodeMessage(MSG.SET_READER_CONFIG, id, Buffer.concat([be(1, 0), encodeParams([impinj(IMPINJ.PlacementConfiguration, placement)])]));
}

export interface LocationRead {
  /** Upper-case hex. */
  readonly epc: string;
  readonly timestampUs: number;
  /** Metres in the facility's coordinates (the reader was given its placement). */
  readonly x: number;
  readonly y: number;
  readonly confidence: number;
  /** 0 ENTRY, 1 UPDATE, 2 EXIT. */
  readonly type: number;
}

/** TLVs of b[at, end): [type, value start, next]. */
function* tlvs(b: Buffer, at: number, end: number): Generator<[number, number, number]> {
  while (at < end) {
    if ((b[at] as number) & 0x80) return; // TV parameters end the TLV part (TagReportData's own are read elsewhere)
    if (at + 4 > end) throw new LlrpDecodeError(`truncated parameter header at byte ${at}`);
    const length = b.readUInt16BE(at + 2);
    if (length < 4 || at + length > end) throw new LlrpDecodeError(`parameter length ${length} outside its container at byte ${at}`);
    yield [b.readUInt16BE(at) & 0x3ff, at + 4, at + length];
    at += length;
  }
}

const impinjSubtype = (b: Buffer, type: number, v: number, next: number): number | null =>
  type === P.Custom && next - v >= 8 && b.readUInt32BE(v) === IMPINJ.VENDOR ? b.readUInt32BE(v + 4) : null;

/** The ImpinjLocationReportData of an RO_ACCESS_REPORT body, one per ImpinjExtendedTagInformation that has one. */
export function decodeLocationReads(body: Buffer): LocationRead[] {
  const out: LocationRead[] = [];
  for (const [type, v, next] of tlvs(body, 0, body.length)) {
    if (impinjSubtype(body, type, v, next) !== IMPINJ.ExtendedTagInformation) continue;
    let epc = '';
    let data: Omit<LocationRead, 'epc'> | null = null;
    for (const [t, iv, inext] of tlvs(body, v + 8, next)) {
      if (t === P.EPCData && inext - iv >= 2) {
        const bytes = Math.ceil(body.readUInt16BE(iv) / 8);
        if (iv + 2 + bytes > inext) throw new LlrpDecodeError('EPCData shorter than its bit count');
        epc = body.toString('hex', iv + 2, iv + 2 + bytes).toUpperCase();
      } else if (impinjSubtype(body, t, iv, inext) === IMPINJ.LocationReportData) {
        const d = iv + 8;
        if (d + 19 > inext) throw new LlrpDecodeError('ImpinjLocationReportData shorter than its fields');
        data = { timestampUs: body.readUInt32BE(d) * 4294967296 + body.readUInt32BE(d + 4), x: body.readInt32BE(d + 8) / 100, y: body.readInt32BE(d + 12) / 100, confidence: body.readUInt16BE(d + 16), type: body.readUInt8(d + 18) };
      }
    }
    if (epc !== '' && data !== null) out.push({ epc, ...data });
  }
  return out;
}

/**
 * What GET_READER_CAPABILITIES_RESPONSE's ImpinjxArrayCapabilities says the
 * reader computes itself (after u32 MaxNumSectors: the SupportsLISpecs bit,
 * then SupportsDISpecs); a reader without one computes neither.
 */
export function arrayCapabilities(body: Buffer, start: number): { readonly locations: boolean; readonly direction: boolean } {
  for (const [type, v, next] of tlvs(body, start, body.length)) {
    if (impinjSubtype(body, type, v, next) !== IMPINJ.xArrayCapabilities || next - v < 13) continue;
    const bits = body.readUInt8(v + 12);
    return { locations: (bits & 0x80) !== 0, direction: (bits & 0x40) !== 0 };
  }
  return { locations: false, direction: false };
}
