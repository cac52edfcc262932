// The simulated LLRP reader's own encoder: what a reader sends, written
// straight from the layouts of EPCglobal LLRP 1.0.1 (section numbers below)
// and Impinj's published LLRP extension definitions (vendor 25882). It shares
// no code with tagtrail's codec (src/llrp) on purpose: a mistake made the
// same way in an encoder and a decoder passes every round trip, so the
// reader tagtrail is tested against writes its bytes by its own hand.
// Big-endian throughout; nothing but a type from src/llrp.
import type { Capabilities } from '../llrp';

const VERSION = 1; // LLRP 1.0.1
const IMPINJ_VENDOR = 25882;

/** Message types (section 16.1) the reader sends. */
export const WIRE_MSG = {
  GET_READER_CAPABILITIES_RESPONSE: 11,
  GET_READER_CONFIG_RESPONSE: 12,
  RO_ACCESS_REPORT: 61,
  KEEPALIVE: 62,
  READER_EVENT_NOTIFICATION: 63,
  ERROR_MESSAGE: 100,
  CUSTOM_MESSAGE: 1023,
} as const;

const be = {
  u8: (n: number): Buffer => Buffer.from([n & 0xff]),
  s8: (n: number): Buffer => Buffer.from([(Math.max(-128, Math.min(127, Math.round(n))) + 256) & 0xff]),
  u16: (n: number): Buffer => {
    const b = Buffer.alloc(2);
    b.writeUInt16BE(n & 0xffff);
    return b;
  },
  s16: (n: number): Buffer => {
    const b = Buffer.alloc(2);
    b.writeInt16BE(Math.max(-32768, Math.min(32767, Math.round(n))));
    return b;
  },
  u32: (n: number): Buffer => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n >>> 0);
    return b;
  },
  s32: (n: number): Buffer => {
    const b = Buffer.alloc(4);
    b.writeInt32BE(Math.round(n));
    return b;
  },
  u64: (n: number): Buffer => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(BigInt(Math.max(0, Math.floor(n))));
    return b;
  },
  /** UTF-8 string with its u16 byte count (section 15.2.2, utf8v). */
  utf8v: (s: string): Buffer => {
    const v = Buffer.from(s, 'utf8');
    return Buffer.concat([be.u16(v.length), v]);
  },
};

/** Message (15.1): 3 reserved bits, 3-bit version, 10-bit type, u32 length of the whole message, u32 id. */
export function wireMessage(type: number, id: number, ...body: Buffer[]): Buffer {
  const payload = Buffer.concat(body);
  return Buffer.concat([be.u16((VERSION << 10) | (type & 0x3ff)), be.u32(10 + payload.length), be.u32(id), payload]);
}

/** TLV parameter (15.2.1): 6 reserved bits and a 10-bit type, u16 length including these 4 bytes. */
export function tlv(type: number, ...value: Buffer[]): Buffer {
  const v = Buffer.concat(value);
  return Buffer.concat([be.u16(type & 0x3ff), be.u16(4 + v.length), v]);
}

/** TV parameter (15.2.1): 1 bit set, 7-bit type, then the value of the type's fixed size. */
const tv = (type: number, value: Buffer): Buffer => Buffer.concat([be.u8(0x80 | type), value]);

/** Custom parameter (1023, 16.2.3.1): u32 vendor, u32 subtype, the vendor's fields. */
export const impinjParam = (subtype: number, ...value: Buffer[]): Buffer => tlv(1023, be.u32(IMPINJ_VENDOR), be.u32(subtype), ...value);

/** LLRPStatus (287, 16.2.8.1): u16 status code, utf8v error description. */
export const llrpStatus = (code: number, description = ''): Buffer => tlv(287, be.u16(code), be.utf8v(description));

/** A response carrying only its LLRPStatus (every *_RESPONSE of 16.1 starts with it). */
export const wireStatus = (type: number, id: number, code = 0, description = ''): Buffer => wireMessage(type, id, llrpStatus(code, description));

export const wireKeepalive = (id: number): Buffer => wireMessage(WIRE_MSG.KEEPALIVE, id);

/** READER_EVENT_NOTIFICATION (16.1.35) with ReaderEventNotificationData (246): UTCTimestamp (128) and ConnectionAttemptEvent (256, u16 status). */
export const wireConnectionAttempt = (id: number, nowUs: number, status: number): Buffer =>
  wireMessage(WIRE_MSG.READER_EVENT_NOTIFICATION, id, tlv(246, tlv(128, be.u64(nowUs)), tlv(256, be.u16(status))));

/** IMPINJ_ENABLE_EXTENSIONS_RESPONSE: CUSTOM_MESSAGE (16.1.42; u32 vendor, u8 subtype 22) with an LLRPStatus. */
export const wireEnableExtensionsResponse = (id: number): Buffer => wireMessage(WIRE_MSG.CUSTOM_MESSAGE, id, be.u32(IMPINJ_VENDOR), be.u8(22), llrpStatus(0));

/** GET_READER_CONFIG_RESPONSE (16.1.6) with ImpinjReaderTemperature (subtype 37: s16 degrees Celsius). */
export const wireTemperatureResponse = (id: number, celsius: number): Buffer => wireMessage(WIRE_MSG.GET_READER_CONFIG_RESPONSE, id, llrpStatus(0), impinjParam(37, be.s16(celsius)));

/** What the reader says of itself: tagtrail's capabilities shape (a type only, no code), plus whether it computes locations. */
export type WireCapabilities = Capabilities & {
  /** Impinj's ImpinjxArrayCapabilities (subtype 1521, SupportsLISpecs and SupportsDISpecs set): present on xArray and xSpan readers. */
  readonly computesLocations?: boolean;
};

/**
 * GET_READER_CAPABILITIES_RESPONSE (16.1.2): LLRPStatus; GeneralDeviceCapabilities
 * (137: u16 antennas, 2 flag bits and 14 reserved, u32 manufacturer, u32 model,
 * utf8v firmware; GPIOCapabilities 141: u16 GPIs, u16 GPOs); RegulatoryCapabilities
 * (143: u16 country, u16 standard; UHFBandCapabilities 144 holding
 * TransmitPowerLevelTableEntry 145 (u16 index, s16 0.01 dBm) and the
 * UHF_C1G2_RF_Mode_Table 328 of entries 329); for a location-computing Impinj
 * reader, ImpinjxArrayCapabilities (u32 max sectors, SupportsLISpecs and
 * SupportsDISpecs bits, 6 reserved).
 */
export function wireCapabilities(id: number, c: WireCapabilities): Buffer {
  const general = tlv(137, be.u16(c.maxAntennas), be.u16(0xc000), be.u32(c.manufacturer), be.u32(c.model), be.utf8v(c.firmware), tlv(141, be.u16(4), be.u16(4)));
  const power = c.transmitPower.map((e) => tlv(145, be.u16(e.index), be.s16(e.dbm * 100)));
  // Mode entry: u32 id, DR and EPC HAG T&C conformance bits + 6 reserved, u8 M, u8 modulation, u8 spectral mask, u32 BDR, PIE, min/max/step Tari.
  const modes = c.rfModes.map((m) => tlv(329, be.u32(m), be.u8(0), be.u8(1), be.u8(2), be.u8(1), be.u32(640000), be.u32(1500), be.u32(6250), be.u32(6250), be.u32(0)));
  const regulatory = tlv(143, be.u16(840), be.u16(1), tlv(144, ...power, tlv(328, ...modes)));
  const extra = c.computesLocations === true ? [impinjParam(1521, be.u32(104), be.u8(0xc0))] : [];
  return wireMessage(WIRE_MSG.GET_READER_CAPABILITIES_RESPONSE, id, llrpStatus(0), general, regulatory, ...extra);
}

export interface WireTagRead {
  readonly epc: string;
  readonly antennaId: number;
  /** Hundredths of a dBm. */
  readonly peakRssiCdbm: number;
  readonly firstSeenUs: number;
  readonly lastSeenUs: number;
  readonly seenCount: number;
  readonly roSpecId: number;
  /** Impinj's ImpinjPeakRSSI (subtype 57, s16 hundredths) besides the standard PeakRSSI. */
  readonly impinjPeakRssi: boolean;
  /** Impinj's ImpinjRFPhaseAngle (subtype 56, u16 0-4095 a turn), degrees. */
  readonly phaseAngle?: number | null;
  /** Impinj's ImpinjSerializedTID (subtype 55: u16 word count, the words), hex. */
  readonly tid?: string | null;
  /** The TID read by an AccessSpec: AccessSpecID (TV 16) and C1G2ReadOpSpecResult (349). */
  readonly accessRead?: { readonly accessSpecId: number; readonly opSpecId: number; readonly words: string } | null;
}

/**
 * TagReportData (240, 16.2.7.3), its parameters in the standard's order: EPC-96
 * (TV 13) or EPCData (241: u16 bit count, the bits), ROSpecID (TV 9, u32),
 * AntennaID (TV 1, u16), PeakRSSI (TV 6, s8 dBm), FirstSeenTimestampUTC (TV 2,
 * u64 us), LastSeenTimestampUTC (TV 4), TagSeenCount (TV 8, u16), AccessSpecID
 * (TV 16, u32), C1G2ReadOpSpecResult (349: u8 result, u16 OpSpecID, u16 word
 * count, the words), then Impinj's custom parameters.
 */
export function wireTagReportData(t: WireTagRead): Buffer {
  const epc = Buffer.from(t.epc, 'hex');
  const parts = [
    epc.length === 12 ? tv(13, epc) : tlv(241, be.u16(epc.length * 8), epc),
    tv(9, be.u32(t.roSpecId)),
    tv(1, be.u16(t.antennaId)),
    tv(6, be.s8(t.peakRssiCdbm / 100)),
    tv(2, be.u64(t.firstSeenUs)),
    tv(4, be.u64(t.lastSeenUs)),
    tv(8, be.u16(Math.min(0xffff, t.seenCount))),
  ];
  if (t.accessRead) {
    const words = Buffer.from(t.accessRead.words, 'hex');
    parts.push(tv(16, be.u32(t.accessRead.accessSpecId)), tlv(349, be.u8(0), be.u16(t.accessRead.opSpecId), be.u16(words.length >> 1), words));
  }
  if (t.impinjPeakRssi) parts.push(impinjParam(57, be.s16(t.peakRssiCdbm)));
  if (t.phaseAngle != null) parts.push(impinjParam(56, be.u16(Math.round((t.phaseAngle / 360) * 4096) & 0xfff)));
  if (t.tid != null) {
    const tid = Buffer.from(t.tid, 'hex');
    parts.push(impinjParam(55, be.u16(tid.length >> 1), tid));
  }
  return tlv(240, ...parts);
}

export interface WireLocation {
  readonly epc: string;
  readonly timestampUs: number;
  readonly xCm: number;
  readonly yCm: number;
  /** Impinj's confidence figure (u16). */
  readonly confidence: number;
  /** ImpinjLocationReportType: 0 ENTRY, 1 UPDATE, 2 EXIT. */
  readonly type: 0 | 1 | 2;
}

/**
 * ImpinjExtendedTagInformation (subtype 1552): EPCData (241) and
 * ImpinjLocationReportData (subtype 1545: u64 TimestampUTC, s32
 * LocXCentimeters, s32 LocYCentimeters, u16 Confidence, u8 Type). An
 * xArray running an ImpinjLISpec sends these at the RO_ACCESS_REPORT's top
 * level, beside (not inside) TagReportData.
 */
export function wireLocationReport(l: WireLocation): Buffer {
  const epc = Buffer.from(l.epc, 'hex');
  return impinjParam(1552, tlv(241, be.u16(epc.length * 8), epc), impinjParam(1545, be.u64(l.timestampUs), be.s32(l.xCm), be.s32(l.yCm), be.u16(l.confidence), be.u8(l.type)));
}

/** RO_ACCESS_REPORT (16.1.31): TagReportData and custom parameters as given. */
export const wireRoAccessReport = (id: number, params: readonly Buffer[]): Buffer => wireMessage(WIRE_MSG.RO_ACCESS_REPORT, id, ...params);
