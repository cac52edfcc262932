// Table-driven LLRP parameters (LLRP 1.0.1 section 15.2): each TLV parameter
// tagtrail uses is a row of (type, fields), each field a wire type; encode
// and decode walk the row. A TLV parameter has a 16-bit word (6 reserved
// bits, 10-bit type) and a 16-bit length that includes its 4-byte header, so
// a parameter tagtrail does not know is skipped by its length. A TV
// parameter is one byte (high bit set, 7-bit type) and a value whose length
// only its type gives (TV_VALUE_BYTES); an unknown TV type cannot be skipped
// and makes the message undecodable. Custom parameters (type 1023) carry a
// vendor id and a subtype; those tagtrail does not know are kept undecoded.
import { P, TV_VALUE_BYTES } from './constants';

export type FieldType = 'u8' | 's8' | 'u16' | 's16' | 'u32' | 'u64' | 'utf8v' | 'u8v' | 'u16v' | 'u1v' | 'rest';
export type FieldValue = number | string | number[] | Buffer;

/** One row of the table: the parameter's fields, in wire order, before its sub-parameters. */
export interface ParamSpec {
  readonly name: string;
  readonly fields: ReadonlyArray<readonly [string, FieldType]>;
}

export const PARAMS: Readonly<Record<number, ParamSpec>> = {
  [P.UTCTimestamp]: { name: 'UTCTimestamp', fields: [['microseconds', 'u64']] },
  [P.Uptime]: { name: 'Uptime', fields: [['microseconds', 'u64']] },
  [P.GeneralDeviceCapabilities]: {
    name: 'GeneralDeviceCapabilities',
    fields: [['maxNumberOfAntennaSupported', 'u16'], ['flags', 'u16'], ['deviceManufacturerName', 'u32'], ['modelName', 'u32'], ['readerFirmwareVersion', 'utf8v']],
  },
  [P.ReceiveSensitivityTableEntry]: { name: 'ReceiveSensitivityTableEntry', fields: [['index', 'u16'], ['receiveSensitivityValue', 's16']] },
  [P.PerAntennaAirProtocol]: { name: 'PerAntennaAirProtocol', fields: [['antennaId', 'u16'], ['protocolIds', 'u8v']] },
  [P.GPIOCapabilities]: { name: 'GPIOCapabilities', fields: [['numGpis', 'u16'], ['numGpos', 'u16']] },
  [P.RegulatoryCapabilities]: { name: 'RegulatoryCapabilities', fields: [['countryCode', 'u16'], ['communicationsStandard', 'u16']] },
  [P.UHFBandCapabilities]: { name: 'UHFBandCapabilities', fields: [] },
  [P.TransmitPowerLevelTableEntry]: { name: 'TransmitPowerLevelTableEntry', fields: [['index', 'u16'], ['transmitPowerValue', 's16']] },
  [P.ROSpec]: { name: 'ROSpec', fields: [['roSpecId', 'u32'], ['priority', 'u8'], ['currentState', 'u8']] },
  [P.ROBoundarySpec]: { name: 'ROBoundarySpec', fields: [] },
  [P.ROSpecStartTrigger]: { name: 'ROSpecStartTrigger', fields: [['triggerType', 'u8']] },
  [P.PeriodicTriggerValue]: { name: 'PeriodicTriggerValue', fields: [['offset', 'u32'], ['period', 'u32']] },
  [P.ROSpecStopTrigger]: { name: 'ROSpecStopTrigger', fields: [['triggerType', 'u8'], ['durationTriggerValue', 'u32']] },
  [P.AISpec]: { name: 'AISpec', fields: [['antennaIds', 'u16v']] },
  [P.AISpecStopTrigger]: { name: 'AISpecStopTrigger', fields: [['triggerType', 'u8'], ['durationTrigger', 'u32']] },
  [P.InventoryParameterSpec]: { name: 'InventoryParameterSpec', fields: [['inventoryParameterSpecId', 'u16'], ['protocolId', 'u8']] },
  [P.KeepaliveSpec]: { name: 'KeepaliveSpec', fields: [['triggerType', 'u8'], ['periodicTriggerValue', 'u32']] },
  [P.AntennaConfiguration]: { name: 'AntennaConfiguration', fields: [['antennaId', 'u16']] },
  [P.RFReceiver]: { name: 'RFReceiver', fields: [['receiverSensitivity', 'u16']] },
  [P.RFTransmitter]: { name: 'RFTransmitter', fields: [['hopTableId', 'u16'], ['channelIndex', 'u16'], ['transmitPower', 'u16']] },
  [P.ROReportSpec]: { name: 'ROReportSpec', fields: [['roReportTrigger', 'u8'], ['n', 'u16']] },
  [P.TagReportContentSelector]: { name: 'TagReportContentSelector', fields: [['flags', 'u16']] },
  [P.TagReportData]: { name: 'TagReportData', fields: [] },
  [P.EPCData]: { name: 'EPCData', fields: [['epc', 'u1v']] },
  [P.ReaderEventNotificationSpec]: { name: 'ReaderEventNotificationSpec', fields: [] },
  [P.EventNotificationState]: { name: 'EventNotificationState', fields: [['eventType', 'u16'], ['flags', 'u8']] },
  [P.ReaderEventNotificationData]: { name: 'ReaderEventNotificationData', fields: [] },
  [P.ROSpecEvent]: { name: 'ROSpecEvent', fields: [['eventType', 'u8'], ['roSpecId', 'u32'], ['preemptingRoSpecId', 'u32']] },
  [P.ReaderExceptionEvent]: { name: 'ReaderExceptionEvent', fields: [['message', 'utf8v']] },
  [P.AntennaEvent]: { name: 'AntennaEvent', fields: [['eventType', 'u8'], ['antennaId', 'u16']] },
  [P.ConnectionAttemptEvent]: { name: 'ConnectionAttemptEvent', fields: [['status', 'u16']] },
  [P.ConnectionCloseEvent]: { name: 'ConnectionCloseEvent', fields: [] },
  [P.LLRPStatus]: { name: 'LLRPStatus', fields: [['statusCode', 'u16'], ['errorDescription', 'utf8v']] },
  [P.FieldError]: { name: 'FieldError', fields: [['fieldNum', 'u16'], ['errorCode', 'u16']] },
  [P.ParameterError]: { name: 'ParameterError', fields: [['parameterType', 'u16'], ['errorCode', 'u16']] },
  [P.C1G2UHFRFModeTable]: { name: 'C1G2UHFRFModeTable', fields: [] },
  [P.C1G2UHFRFModeTableEntry]: {
    name: 'C1G2UHFRFModeTableEntry',
    fields: [['modeIdentifier', 'u32'], ['flags', 'u8'], ['mValue', 'u8'], ['forwardLinkModulation', 'u8'], ['spectralMaskIndicator', 'u8'], ['bdrValue', 'u32'], ['pieValue', 'u32'], ['minTariValue', 'u32'], ['maxTariValue', 'u32'], ['stepTariValue', 'u32']],
  },
  [P.C1G2InventoryCommand]: { name: 'C1G2InventoryCommand', fields: [['flags', 'u8']] },
  [P.C1G2Filter]: { name: 'C1G2Filter', fields: [['flags', 'u8']] },
  [P.C1G2TagInventoryMask]: { name: 'C1G2TagInventoryMask', fields: [['flags', 'u8'], ['pointer', 'u16'], ['tagMask', 'u1v']] },
  [P.C1G2TagInventoryStateUnawareFilterAction]: { name: 'C1G2TagInventoryStateUnawareFilterAction', fields: [['action', 'u8']] },
  [P.C1G2RFControl]: { name: 'C1G2RFControl', fields: [['modeIndex', 'u16'], ['tari', 'u16']] },
  [P.C1G2SingulationControl]: { name: 'C1G2SingulationControl', fields: [['flags', 'u8'], ['tagPopulation', 'u16'], ['tagTransitTime', 'u32']] },
  [P.C1G2EPCMemorySelector]: { name: 'C1G2EPCMemorySelector', fields: [['flags', 'u8']] },
  [P.AccessSpec]: { name: 'AccessSpec', fields: [['accessSpecId', 'u32'], ['antennaId', 'u16'], ['protocolId', 'u8'], ['currentState', 'u8'], ['roSpecId', 'u32']] },
  [P.AccessSpecStopTrigger]: { name: 'AccessSpecStopTrigger', fields: [['triggerType', 'u8'], ['operationCountValue', 'u16']] },
  [P.AccessCommand]: { name: 'AccessCommand', fields: [] },
  [P.AccessReportSpec]: { name: 'AccessReportSpec', fields: [['accessReportTrigger', 'u8']] },
  [P.C1G2TagSpec]: { name: 'C1G2TagSpec', fields: [] },
  [P.C1G2TargetTag]: { name: 'C1G2TargetTag', fields: [['flags', 'u8'], ['pointer', 'u16'], ['tagMask', 'u1v'], ['tagData', 'u1v']] },
  [P.C1G2Read]: { name: 'C1G2Read', fields: [['opSpecId', 'u16'], ['accessPassword', 'u32'], ['flags', 'u8'], ['wordPointer', 'u16'], ['wordCount', 'u16']] },
  [P.C1G2ReadOpSpecResult]: { name: 'C1G2ReadOpSpecResult', fields: [['result', 'u8'], ['opSpecId', 'u16'], ['readData', 'u16v']] },
  // Vendor extension: the data after the subtype is the vendor's, decoded by vendor tables (custom.ts).
  [P.Custom]: { name: 'Custom', fields: [['vendorIdentifier', 'u32'], ['parameterSubtype', 'u32'], ['data', 'rest']] },
};

export class LlrpDecodeError extends Error {
  override name = 'LlrpDecodeError';
}

/** A decoded parameter: TLV (with fields and sub-parameters) or TV (value bytes). */
export interface Param {
  readonly type: number;
  readonly tv: boolean;
  /** Decoded fields (TLV parameters of the table); {} for unknown ones. */
  readonly fields: Readonly<Record<string, FieldValue>>;
  readonly params: readonly Param[];
  /** The value bytes after the parameter header (TV: the value; TLV: fields and sub-parameters). */
  readonly value: Buffer;
  /** True when the table does not know this TLV type: it was skipped by its length. */
  readonly unknown: boolean;
}

/** What to encode: a TLV parameter by type with its fields and sub-parameters, a TV, or ready bytes. */
export type ParamInput =
  | { readonly type: number; readonly fields?: Readonly<Record<string, FieldValue>>; readonly params?: readonly ParamInput[] }
  | { readonly tv: number; readonly value: Buffer }
  | Buffer;

// ---- field codecs ----

function fieldBytes(type: FieldType, v: FieldValue | undefined): Buffer {
  switch (type) {
    case 'u8':
    case 's8': {
      const b = Buffer.alloc(1);
      if (type === 'u8') b.writeUInt8(Number(v ?? 0) & 0xff, 0);
      else b.writeInt8(Number(v ?? 0), 0);
      return b;
    }
    case 'u16':
    case 's16': {
      const b = Buffer.alloc(2);
      if (type === 'u16') b.writeUInt16BE(Number(v ?? 0) & 0xffff, 0);
      else b.writeInt16BE(Number(v ?? 0), 0);
      return b;
    }
    case 'u32': {
      const b = Buffer.alloc(4);
      b.writeUInt32BE(Number(v ?? 0) >>> 0, 0);
      return b;
    }
    case 'u64': {
      const b = Buffer.alloc(8);
      b.writeBigUInt64BE(BigInt(Math.max(0, Math.floor(Number(v ?? 0)))), 0);
      return b;
    }
    case 'utf8v': {
      const s = Buffer.from(typeof v === 'string' ? v : '', 'utf8');
      const b = Buffer.alloc(2 + s.length);
      b.writeUInt16BE(s.length, 0);
      s.copy(b, 2);
      return b;
    }
    case 'u8v':
    case 'u16v': {
      const arr = Array.isArray(v) ? v : [];
      const w = type === 'u8v' ? 1 : 2;
      const b = Buffer.alloc(2 + arr.length * w);
      b.writeUInt16BE(arr.length, 0);
      arr.forEach((n, i) => (w === 1 ? b.writeUInt8(n & 0xff, 2 + i) : b.writeUInt16BE(n & 0xffff, 2 + i * 2)));
      return b;
    }
    case 'u1v': {
      // Bit count, then the bits padded to whole bytes. A Buffer is taken as all of its bits.
      const bits = Buffer.isBuffer(v) ? v : Buffer.alloc(0);
      const b = Buffer.alloc(2 + bits.length);
      b.writeUInt16BE(bits.length * 8, 0);
      bits.copy(b, 2);
      return b;
    }
    case 'rest':
      return Buffer.isBuffer(v) ? v : Buffer.alloc(0);
  }
}

function readField(type: FieldType, buf: Buffer, at: number, end: number): [FieldValue, number] {
  const need = (n: number): void => {
    if (at + n > end) throw new LlrpDecodeError(`field of type ${type} runs past its parameter (${at + n} > ${end})`);
  };
  switch (type) {
    case 'u8':
      need(1);
      return [buf.readUInt8(at), at + 1];
    case 's8':
      need(1);
      return [buf.readInt8(at), at + 1];
    case 'u16':
      need(2);
      return [buf.readUInt16BE(at), at + 2];
    case 's16':
      need(2);
      return [buf.readInt16BE(at), at + 2];
    case 'u32':
      need(4);
      return [buf.readUInt32BE(at), at + 4];
    case 'u64':
      need(8);
      return [Number(buf.readBigUInt64BE(at)), at + 8];
    case 'utf8v': {
      need(2);
      const n = buf.readUInt16BE(at);
      need(2 + n);
      return [buf.toString('utf8', at + 2, at + 2 + n), at + 2 + n];
    }
    case 'u8v':
    case 'u16v': {
      need(2);
      const n = buf.readUInt16BE(at);
      const w = type === 'u8v' ? 1 : 2;
      need(2 + n * w);
      const out: number[] = [];
      for (let i = 0; i < n; i++) out.push(w === 1 ? buf.readUInt8(at + 2 + i) : buf.readUInt16BE(at + 2 + i * 2));
      return [out, at + 2 + n * w];
    }
    case 'u1v': {
      need(2);
      const bytes = Math.ceil(buf.readUInt16BE(at) / 8);
      need(2 + bytes);
      return [buf.subarray(at + 2, at + 2 + bytes), at + 2 + bytes];
    }
    case 'rest':
      return [buf.subarray(at, end), end];
  }
}

// ---- parameters ----

export function encodeParam(p: ParamInput): Buffer {
  if (Buffer.isBuffer(p)) return p;
  if ('tv' in p) {
    const expected = TV_VALUE_BYTES[p.tv] ?? 0;
    if (expected !== p.value.length) throw new Error(`TV ${p.tv} takes ${expected} bytes, got ${p.value.length}`);
    return Buffer.concat([Buffer.from([0x80 | p.tv]), p.value]);
  }
  const spec = PARAMS[p.type];
  if (spec === undefined) throw new Error(`no table row for parameter ${p.type}`);
  const parts = spec.fields.map(([name, type]) => fieldBytes(type, p.fields?.[name]));
  for (const child of p.params ?? []) parts.push(encodeParam(child));
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(4);
  head.writeUInt16BE(p.type & 0x3ff, 0);
  head.writeUInt16BE(4 + body.length, 2);
  return Buffer.concat([head, body]);
}

export const encodeParams = (ps: readonly ParamInput[]): Buffer => Buffer.concat(ps.map(encodeParam));

/** Every parameter in buf[start, end), in order. */
export function decodeParams(buf: Buffer, start = 0, end = buf.length): Param[] {
  const out: Param[] = [];
  let at = start;
  while (at < end) {
    const first = buf.readUInt8(at);
    if (first & 0x80) {
      const type = first & 0x7f;
      const n = TV_VALUE_BYTES[type] ?? 0;
      if (n === 0) throw new LlrpDecodeError(`unknown TV parameter type ${type} at byte ${at}: its length is unknown, the rest cannot be read`);
      if (at + 1 + n > end) throw new LlrpDecodeError(`TV parameter ${type} runs past its container`);
      out.push({ type, tv: true, fields: {}, params: [], value: buf.subarray(at + 1, at + 1 + n), unknown: false });
      at += 1 + n;
      continue;
    }
    if (at + 4 > end) throw new LlrpDecodeError(`truncated parameter header at byte ${at}`);
    const type = buf.readUInt16BE(at) & 0x3ff;
    const length = buf.readUInt16BE(at + 2);
    if (length < 4 || at + length > end) throw new LlrpDecodeError(`parameter ${type} has length ${length}, outside its container`);
    out.push(decodeTlv(type, buf, at + 4, at + length));
    at += length;
  }
  return out;
}

function decodeTlv(type: number, buf: Buffer, start: number, end: number): Param {
  const value = buf.subarray(start, end);
  const spec = PARAMS[type];
  if (spec === undefined) return { type, tv: false, fields: {}, params: [], value, unknown: true };
  const fields: Record<string, FieldValue> = {};
  let at = start;
  for (const [name, ft] of spec.fields) {
    const [v, next] = readField(ft, buf, at, end);
    fields[name] = v;
    at = next;
  }
  const params = type === P.Custom ? [] : decodeParams(buf, at, end);
  return { type, tv: false, fields, params, value, unknown: false };
}

// ---- reading helpers ----

export const child = (p: { readonly params: readonly Param[] }, type: number): Param | undefined => p.params.find((c) => c.type === type && !c.tv);
export const children = (p: { readonly params: readonly Param[] }, type: number): Param[] => p.params.filter((c) => c.type === type && !c.tv);
export const num = (p: Param | undefined, field: string): number => {
  const v = p?.fields[field];
  return typeof v === 'number' ? v : 0;
};
export const str = (p: Param | undefined, field: string): string => {
  const v = p?.fields[field];
  return typeof v === 'string' ? v : '';
};
export const nums = (p: Param | undefined, field: string): number[] => {
  const v = p?.fields[field];
  return Array.isArray(v) ? v : [];
};
export const bytes = (p: Param | undefined, field: string): Buffer => {
  const v = p?.fields[field];
  return Buffer.isBuffer(v) ? v : Buffer.alloc(0);
};

/** A custom (vendor) parameter with its vendor id and subtype, or undefined. */
export const custom = (p: { readonly params: readonly Param[] }, vendor: number, subtype: number): Param | undefined =>
  p.params.find((c) => c.type === P.Custom && num(c, 'vendorIdentifier') === vendor && num(c, 'parameterSubtype') === subtype);

/** A custom parameter to encode: vendor, subtype and the vendor's data bytes. */
export const customParam = (vendor: number, subtype: number, data: Buffer, params: readonly ParamInput[] = []): ParamInput =>
  ({ type: P.Custom, fields: { vendorIdentifier: vendor, parameterSubtype: subtype, data: Buffer.concat([data, encodeParams(params)]) } });
