// The LLRP messages tagtrail exchanges, as typed values: builders for what
// the host sends and the reader answers (the simulator plays the reader),
// and decoders of what comes back. Section numbers are LLRP 1.0.1's.
import { IMPINJ, IMPINJ_VALUES, MSG, P, STATUS_NAMES, TV, TV_VALUE_BYTES } from './constants';
import { encodeMessage, type LlrpMessage } from './frame';
import { TID_OPSPEC_ID } from './access';
import { arrayCapabilities, decodeLocationReads, liSpec, locationReporting, type LocationPlan } from './location';
import { bytes, child, children, custom, customParam, decodeParams, encodeParams, LlrpDecodeError, num, nums, str, type Param, type ParamInput } from './params';

const u8 = (n: number): Buffer => Buffer.from([n & 0xff]);
const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0, 0);
  return b;
};
const u16 = (n: number): Buffer => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n & 0xffff, 0);
  return b;
};

// ---- LLRPStatus (14.2.2.1): in every response and in ERROR_MESSAGE ----

export interface LlrpStatus {
  readonly code: number;
  /** The status name (M_Success, M_ParameterError, ...) or `status <code>`. */
  readonly name: string;
  readonly description: string;
}

export function statusOf(message: LlrpMessage, params: readonly Param[] = decodeParams(message.body, bodyStart(message))): LlrpStatus {
  const s = params.find((p) => p.type === P.LLRPStatus && !p.tv);
  if (s === undefined) throw new LlrpDecodeError(`message type ${message.type} carries no LLRPStatus`);
  const code = num(s, 'statusCode');
  // The reader may say more in FieldError / ParameterError: name the parameter type.
  const perr = child(s, P.ParameterError);
  const where = perr === undefined ? '' : ` (parameter type ${num(perr, 'parameterType')}, error ${STATUS_NAMES[num(perr, 'errorCode')] ?? num(perr, 'errorCode')})`;
  return { code, name: STATUS_NAMES[code] ?? `status ${code}`, description: `${str(s, 'errorDescription')}${where}` };
}

/** Bytes of a message body before its parameters (fixed fields). */
function bodyStart(m: LlrpMessage): number {
  switch (m.type) {
    case MSG.GET_READER_CAPABILITIES:
    case MSG.SET_READER_CONFIG:
      return 1;
    case MSG.DELETE_ROSPEC:
    case MSG.START_ROSPEC:
    case MSG.STOP_ROSPEC:
    case MSG.ENABLE_ROSPEC:
    case MSG.DISABLE_ROSPEC:
      return 4;
    case MSG.CUSTOM_MESSAGE:
      return 5;
    default:
      return 0;
  }
}

/** A response or ERROR_MESSAGE carrying `status`. */
export function statusMessage(type: number, id: number, code: number, description = '', extra: readonly ParamInput[] = []): Buffer {
  return encodeMessage(type, id, encodeParams([{ type: P.LLRPStatus, fields: { statusCode: code, errorDescription: description } }, ...extra]));
}

// ---- host requests ----

export const getReaderCapabilities = (id: number): Buffer => encodeMessage(MSG.GET_READER_CAPABILITIES, id, u8(0)); // 0 = all
export const closeConnection = (id: number): Buffer => encodeMessage(MSG.CLOSE_CONNECTION, id);
export const keepaliveAck = (id: number): Buffer => encodeMessage(MSG.KEEPALIVE_ACK, id);
export const roSpecCommand = (type: number, id: number, roSpecId: number): Buffer => encodeMessage(type, id, u32(roSpecId));
export const addRoSpec = (id: number, spec: RoSpec): Buffer => encodeMessage(MSG.ADD_ROSPEC, id, encodeParams([encodeRoSpec(spec)]));
/** Impinj readers accept their custom parameters only after IMPINJ_ENABLE_EXTENSIONS. */
export const impinjEnableExtensions = (id: number): Buffer =>
  encodeMessage(MSG.CUSTOM_MESSAGE, id, Buffer.concat([u32(IMPINJ.VENDOR), u8(IMPINJ.ENABLE_EXTENSIONS), u32(0)]));

/**
 * GET_READER_CONFIG (13.1.4: AntennaID 0, RequestedData 0 = all, GPI and GPO
 * port 0) with ImpinjRequestedData asking for the reader's temperature.
 */
export const getImpinjTemperature = (id: number): Buffer =>
  encodeMessage(
    MSG.GET_READER_CONFIG,
    id,
    Buffer.concat([u16(0), u8(0), u16(0), u16(0), encodeParams([customParam(IMPINJ.VENDOR, IMPINJ.RequestedData, u32(IMPINJ_VALUES.REQUESTED_READER_TEMPERATURE))])]),
  );

/** Bytes of GET_READER_CONFIG before its parameters: AntennaID, RequestedData, GPIPortNum, GPOPortNum. */
const GET_READER_CONFIG_FIXED = 7;

/** Whether a GET_READER_CONFIG asks for Impinj's reader temperature (all data, or ImpinjRequestedData 2004 / all configuration 2000). */
export function asksImpinjTemperature(m: LlrpMessage): boolean {
  if (m.body.length < GET_READER_CONFIG_FIXED) return false;
  const requested = custom({ params: decodeParams(m.body, GET_READER_CONFIG_FIXED) }, IMPINJ.VENDOR, IMPINJ.RequestedData);
  const data = requested === undefined ? Buffer.alloc(0) : bytes(requested, 'data');
  return data.length >= 4 && (data.readUInt32BE(0) === IMPINJ_VALUES.REQUESTED_READER_TEMPERATURE || data.readUInt32BE(0) === IMPINJ_VALUES.REQUESTED_ALL_CONFIGURATION);
}

/** GET_READER_CONFIG_RESPONSE as an Impinj reader answers it (the simulator): M_Success and ImpinjReaderTemperature. */
export function temperatureResponse(id: number, celsius: number): Buffer {
  const t = Buffer.alloc(2);
  t.writeInt16BE(Math.round(celsius), 0);
  return encodeMessage(MSG.GET_READER_CONFIG_RESPONSE, id, encodeParams([{ type: P.LLRPStatus, fields: { statusCode: 0, errorDescription: '' } }, customParam(IMPINJ.VENDOR, IMPINJ.ReaderTemperature, t)]));
}

/** The ImpinjReaderTemperature (degrees Celsius) of a GET_READER_CONFIG_RESPONSE; null when it carries none. */
export function readerTemperatureOf(m: LlrpMessage): number | null {
  const p = custom({ params: decodeParams(m.body) }, IMPINJ.VENDOR, IMPINJ.ReaderTemperature);
  const data = p === undefined ? Buffer.alloc(0) : bytes(p, 'data');
  return data.length >= 2 ? data.readInt16BE(0) : null;
}

/** Reader event types of EventNotificationState (13.2.6.2). */
export const READER_EVENT = { ROSPEC: 2, REPORT_BUFFER_FILL_WARNING: 3, READER_EXCEPTION: 4, ANTENNA: 8 } as const;

/**
 * SET_READER_CONFIG (13.1.3): periodic keepalives, and notification of the
 * events tagtrail turns into health (antenna, exception, buffer warning, ROSpec).
 */
export function setReaderConfig(id: number, o: { keepaliveMs: number; resetToFactoryDefault?: boolean }): Buffer {
  const events = Object.values(READER_EVENT).map((eventType): ParamInput => ({ type: P.EventNotificationState, fields: { eventType, flags: 0x80 } }));
  return encodeMessage(
    MSG.SET_READER_CONFIG,
    id,
    Buffer.concat([
      u8(o.resetToFactoryDefault ? 0x80 : 0),
      encodeParams([
        { type: P.ReaderEventNotificationSpec, params: events },
        { type: P.KeepaliveSpec, fields: { triggerType: 1, periodicTriggerValue: o.keepaliveMs } },
      ]),
    ]),
  );
}

/** What SET_READER_CONFIG asked: the keepalive period (ms; 0 = none). */
export function readKeepaliveSpec(m: LlrpMessage): number {
  const spec = child({ params: decodeParams(m.body, 1) }, P.KeepaliveSpec);
  return num(spec, 'triggerType') === 1 ? num(spec, 'periodicTriggerValue') : 0;
}

/** The ROSpecID of DELETE/START/STOP/ENABLE/DISABLE_ROSPEC. */
export const roSpecIdOf = (m: LlrpMessage): number => (m.body.length >= 4 ? m.body.readUInt32BE(0) : 0);

// ---- ROSpec (10.2.1) ----

export interface AntennaPlan {
  readonly antennaId: number;
  /** Index into the reader's TransmitPowerLevelTable; null = the reader's default. */
  readonly transmitPowerIndex: number | null;
  /** C1G2RFControl ModeIndex; null = the reader's default. */
  readonly modeIndex: number | null;
  readonly session: number | null;
  readonly tagPopulation: number | null;
  /** Impinj InventorySearchMode; null = none sent. */
  readonly impinjSearchMode: number | null;
  readonly filter: { readonly memoryBank: number; readonly pointer: number; readonly mask: Buffer } | null;
}

export interface RoSpec {
  readonly roSpecId: number;
  /** ROSpecStartTrigger: 0 null (START_ROSPEC starts it), 1 immediate. */
  readonly startTrigger: 0 | 1;
  /** ROSpecStopTrigger duration in ms; 0 = null trigger (runs until STOP_ROSPEC). */
  readonly durationMs: number;
  /** AISpec antennas; [0] = all. */
  readonly antennaIds: readonly number[];
  readonly antennas: readonly AntennaPlan[];
  /** ROReportSpec: 1 = every N tags or end of AISpec, 2 = ... end of ROSpec. */
  readonly reportTrigger: number;
  readonly reportEveryN: number;
  /** Impinj PeakRSSI (hundredths of dBm), RF phase angle and serialized TID in reports. */
  readonly impinjPeakRssi: boolean;
  readonly impinjPhase: boolean;
  readonly impinjTid: boolean;
  /** Each tag's TID read by an AccessSpec of its own (access.ts) beside this ROSpec: readers without Impinj's serialized TID. */
  readonly accessTid?: boolean;
  /** The reader locates tags itself: an ImpinjLISpec (location.ts) in place of the AISpec. */
  readonly location?: LocationPlan;
}

/** TagReportContentSelector bits (13.2.1.1), most significant first. */
const SELECT = { roSpecId: 1 << 15, antennaId: 1 << 12, channelIndex: 1 << 11, peakRssi: 1 << 10, firstSeen: 1 << 9, lastSeen: 1 << 8, tagSeenCount: 1 << 7 };
const SELECTED = SELECT.roSpecId | SELECT.antennaId | SELECT.channelIndex | SELECT.peakRssi | SELECT.firstSeen | SELECT.lastSeen | SELECT.tagSeenCount;

function antennaConfiguration(a: AntennaPlan): ParamInput {
  const command: ParamInput[] = [];
  if (a.filter !== null) {
    command.push({
      type: P.C1G2Filter,
      fields: { flags: 0 },
      params: [
        { type: P.C1G2TagInventoryMask, fields: { flags: (a.filter.memoryBank & 0x3) << 6, pointer: a.filter.pointer, tagMask: a.filter.mask } },
        { type: P.C1G2TagInventoryStateUnawareFilterAction, fields: { action: 0 } }, // select matching, unselect others
      ],
    });
  }
  if (a.modeIndex !== null) command.push({ type: P.C1G2RFControl, fields: { modeIndex: a.modeIndex, tari: 0 } });
  if (a.session !== null) {
    command.push({ type: P.C1G2SingulationControl, fields: { flags: (a.session & 0x3) << 6, tagPopulation: a.tagPopulation ?? 32, tagTransitTime: 0 } });
  }
  if (a.impinjSearchMode !== null) command.push(customParam(IMPINJ.VENDOR, IMPINJ.InventorySearchMode, u16(a.impinjSearchMode)));
  const params: ParamInput[] = [];
  if (a.transmitPowerIndex !== null) params.push({ type: P.RFTransmitter, fields: { hopTableId: 1, channelIndex: 1, transmitPower: a.transmitPowerIndex } });
  params.push({ type: P.C1G2InventoryCommand, fields: { flags: 0 }, params: command });
  return { type: P.AntennaConfiguration, fields: { antennaId: a.antennaId }, params };
}

export function encodeRoSpec(s: RoSpec): ParamInput {
  const impinj: ParamInput[] = [];
  // In the order of Impinj's definition of ImpinjTagReportContentSelector: TID, phase, peak RSSI.
  if (s.impinjTid) impinj.push(customParam(IMPINJ.VENDOR, IMPINJ.EnableSerializedTID, u16(1)));
  if (s.impinjPhase) impinj.push(customParam(IMPINJ.VENDOR, IMPINJ.EnableRFPhaseAngle, u16(1)));
  if (s.impinjPeakRssi) impinj.push(customParam(IMPINJ.VENDOR, IMPINJ.EnablePeakRSSI, u16(1)));
  return {
    type: P.ROSpec,
    fields: { roSpecId: s.roSpecId, priority: 0, currentState: 0 },
    params: [
      {
        type: P.ROBoundarySpec,
        params: [
          { type: P.ROSpecStartTrigger, fields: { triggerType: s.startTrigger } },
          { type: P.ROSpecStopTrigger, fields: { triggerType: s.durationMs > 0 ? 1 : 0, durationTriggerValue: s.durationMs } },
        ],
      },
      s.location !== undefined ? liSpec(s.location) : {
        type: P.AISpec,
        fields: { antennaIds: [...s.antennaIds] },
        params: [
          { type: P.AISpecStopTrigger, fields: { triggerType: 0, durationTrigger: 0 } },
          { type: P.InventoryParameterSpec, fields: { inventoryParameterSpecId: 1, protocolId: 1 }, params: s.antennas.map(antennaConfiguration) },
        ],
      },
      {
        type: P.ROReportSpec,
        fields: { roReportTrigger: s.reportTrigger, n: s.reportEveryN },
        params: [
          { type: P.TagReportContentSelector, fields: { flags: SELECTED } },
          ...(impinj.length > 0 ? [customParam(IMPINJ.VENDOR, IMPINJ.TagReportContentSelector, Buffer.alloc(0), impinj)] : []),
          ...(s.location !== undefined ? [locationReporting(s.location)] : []),
        ],
      },
    ],
  };
}

/** The ROSpec of an ADD_ROSPEC (the simulator honours it). */
export function decodeAddRoSpec(m: LlrpMessage): RoSpec {
  const spec = decodeParams(m.body).find((p) => p.type === P.ROSpec);
  if (spec === undefined) throw new LlrpDecodeError('ADD_ROSPEC without ROSpec');
  const boundary = child(spec, P.ROBoundarySpec);
  const ai = child(spec, P.AISpec);
  const report = child(spec, P.ROReportSpec);
  const inv = ai === undefined ? undefined : child(ai, P.InventoryParameterSpec);
  const impinjSel = report === undefined ? undefined : custom(report, IMPINJ.VENDOR, IMPINJ.TagReportContentSelector);
  const impinjInner = impinjSel === undefined ? [] : decodeParams(bytes(impinjSel, 'data'));
  const enabled = (subtype: number): boolean => {
    const p = custom({ params: impinjInner }, IMPINJ.VENDOR, subtype);
    return p !== undefined && bytes(p, 'data').length >= 2 && bytes(p, 'data').readUInt16BE(0) === 1;
  };
  const stop = boundary === undefined ? undefined : child(boundary, P.ROSpecStopTrigger);
  return {
    roSpecId: num(spec, 'roSpecId'),
    startTrigger: num(boundary === undefined ? undefined : child(boundary, P.ROSpecStartTrigger), 'triggerType') === 1 ? 1 : 0,
    durationMs: num(stop, 'triggerType') === 1 ? num(stop, 'durationTriggerValue') : 0,
    antennaIds: nums(ai, 'antennaIds'),
    antennas: inv === undefined ? [] : children(inv, P.AntennaConfiguration).map((a): AntennaPlan => {
      const cmd = child(a, P.C1G2InventoryCommand);
      const rf = cmd === undefined ? undefined : child(cmd, P.C1G2RFControl);
      const sing = cmd === undefined ? undefined : child(cmd, P.C1G2SingulationControl);
      const tx = child(a, P.RFTransmitter);
      const search = cmd === undefined ? undefined : custom(cmd, IMPINJ.VENDOR, IMPINJ.InventorySearchMode);
      const filter = cmd === undefined ? undefined : child(cmd, P.C1G2Filter);
      const mask = filter === undefined ? undefined : child(filter, P.C1G2TagInventoryMask);
      return {
        antennaId: num(a, 'antennaId'),
        transmitPowerIndex: tx === undefined ? null : num(tx, 'transmitPower'),
        modeIndex: rf === undefined ? null : num(rf, 'modeIndex'),
        session: sing === undefined ? null : num(sing, 'flags') >> 6,
        tagPopulation: sing === undefined ? null : num(sing, 'tagPopulation'),
        impinjSearchMode: search === undefined || bytes(search, 'data').length < 2 ? null : bytes(search, 'data').readUInt16BE(0),
        filter: mask === undefined ? null : { memoryBank: num(mask, 'flags') >> 6, pointer: num(mask, 'pointer'), mask: bytes(mask, 'tagMask') },
      };
    }),
    reportTrigger: num(report, 'roReportTrigger'),
    reportEveryN: num(report, 'n'),
    impinjPeakRssi: enabled(IMPINJ.EnablePeakRSSI),
    impinjPhase: enabled(IMPINJ.EnableRFPhaseAngle),
    impinjTid: enabled(IMPINJ.EnableSerializedTID),
  };
}

// ---- capabilities (13.1.2, 13.2.4.1-2, 15.2.1.1.2) ----

export interface Capabilities {
  readonly maxAntennas: number;
  /** IANA enterprise number of the maker (25882 = Impinj). */
  readonly manufacturer: number;
  readonly model: number;
  readonly firmware: string;
  /** TransmitPowerLevelTable: index -> dBm (the table holds hundredths of a dBm). */
  readonly transmitPower: ReadonlyArray<{ readonly index: number; readonly dbm: number }>;
  /** UHF C1G2 RF mode table: the ModeIdentifiers the reader offers. */
  readonly rfModes: readonly number[];
  /** The reader computes tag locations itself (Impinj's ImpinjxArrayCapabilities with SupportsLISpecs: xArray, xSpan). */
  readonly computesLocations?: boolean;
  /**
   * The reader can decide which way tags pass itself (ImpinjxArrayCapabilities with SupportsDISpecs). tagtrail does not
   * ask it to (docs/readers.md, "THRESHOLD on readers that decide direction"): it is reported, not used.
   */
  readonly computesDirection?: boolean;
}

export function decodeCapabilities(m: LlrpMessage): { status: LlrpStatus; capabilities: Capabilities } {
  const params = decodeParams(m.body);
  const status = statusOf(m, params);
  const root = { params };
  const general = child(root, P.GeneralDeviceCapabilities);
  const band = child(child(root, P.RegulatoryCapabilities) ?? { params: [] }, P.UHFBandCapabilities);
  const table = band === undefined ? undefined : child(band, P.C1G2UHFRFModeTable);
  const array = arrayCapabilities(m.body, 0);
  return {
    status,
    capabilities: {
      maxAntennas: num(general, 'maxNumberOfAntennaSupported'),
      manufacturer: num(general, 'deviceManufacturerName'),
      model: num(general, 'modelName'),
      firmware: str(general, 'readerFirmwareVersion'),
      transmitPower: band === undefined ? [] : children(band, P.TransmitPowerLevelTableEntry).map((e) => ({ index: num(e, 'index'), dbm: num(e, 'transmitPowerValue') / 100 })),
      rfModes: table === undefined ? [] : children(table, P.C1G2UHFRFModeTableEntry).map((e) => num(e, 'modeIdentifier')),
      computesLocations: array.locations,
      computesDirection: array.direction,
    },
  };
}

/** GET_READER_CAPABILITIES_RESPONSE as a reader sends it (the simulator). */
export function capabilitiesResponse(id: number, c: Capabilities): Buffer {
  const modeEntry = (modeIdentifier: number): ParamInput => ({
    type: P.C1G2UHFRFModeTableEntry,
    fields: { modeIdentifier, flags: 0, mValue: 1, forwardLinkModulation: 2, spectralMaskIndicator: 1, bdrValue: 640000, pieValue: 1500, minTariValue: 6250, maxTariValue: 6250, stepTariValue: 0 },
  });
  return encodeMessage(
    MSG.GET_READER_CAPABILITIES_RESPONSE,
    id,
    encodeParams([
      { type: P.LLRPStatus, fields: { statusCode: 0, errorDescription: '' } },
      {
        type: P.GeneralDeviceCapabilities,
        fields: { maxNumberOfAntennaSupported: c.maxAntennas, flags: 0xc000, deviceManufacturerName: c.manufacturer, modelName: c.model, readerFirmwareVersion: c.firmware },
        params: [{ type: P.GPIOCapabilities, fields: { numGpis: 4, numGpos: 4 } }],
      },
      {
        type: P.RegulatoryCapabilities,
        fields: { countryCode: 840, communicationsStandard: 1 },
        params: [
          {
            type: P.UHFBandCapabilities,
            params: [
              ...c.transmitPower.map((e): ParamInput => ({ type: P.TransmitPowerLevelTableEntry, fields: { index: e.index, transmitPowerValue: Math.round(e.dbm * 100) } })),
              { type: P.C1G2UHFRFModeTable, params: c.rfModes.map(modeEntry) },
            ],
          },
        ],
      },
    ]),
  );
}

// ---- reader events (13.1.10, 13.2.6) ----

export interface ReaderEvent {
  /** ConnectionAttemptEvent status: 0 success, else the reader refused this host. */
  readonly connectionAttempt: number | null;
  readonly connectionClose: boolean;
  readonly antenna: { readonly connected: boolean; readonly antennaId: number } | null;
  readonly exception: string | null;
  readonly roSpec: { readonly event: number; readonly roSpecId: number } | null;
  /** Microseconds since the epoch (UTCTimestamp), or null (Uptime only). */
  readonly timestampUs: number | null;
}

export function decodeReaderEvent(m: LlrpMessage): ReaderEvent {
  const data = decodeParams(m.body).find((p) => p.type === P.ReaderEventNotificationData);
  if (data === undefined) throw new LlrpDecodeError('READER_EVENT_NOTIFICATION without ReaderEventNotificationData');
  const attempt = child(data, P.ConnectionAttemptEvent);
  const antenna = child(data, P.AntennaEvent);
  const exception = child(data, P.ReaderExceptionEvent);
  const ro = child(data, P.ROSpecEvent);
  const utc = child(data, P.UTCTimestamp);
  return {
    connectionAttempt: attempt === undefined ? null : num(attempt, 'status'),
    connectionClose: child(data, P.ConnectionCloseEvent) !== undefined,
    antenna: antenna === undefined ? null : { connected: num(antenna, 'eventType') === 1, antennaId: num(antenna, 'antennaId') },
    exception: exception === undefined ? null : str(exception, 'message'),
    roSpec: ro === undefined ? null : { event: num(ro, 'eventType'), roSpecId: num(ro, 'roSpecId') },
    timestampUs: utc === undefined ? null : num(utc, 'microseconds'),
  };
}

export type ReaderEventInput =
  | { readonly kind: 'connectionAttempt'; readonly status: number }
  | { readonly kind: 'connectionClose' }
  | { readonly kind: 'antenna'; readonly connected: boolean; readonly antennaId: number }
  | { readonly kind: 'exception'; readonly message: string };

/** READER_EVENT_NOTIFICATION as a reader sends it (the simulator). */
export function readerEventNotification(id: number, nowUs: number, e: ReaderEventInput): Buffer {
  const event: ParamInput =
    e.kind === 'connectionAttempt'
      ? { type: P.ConnectionAttemptEvent, fields: { status: e.status } }
      : e.kind === 'connectionClose'
        ? { type: P.ConnectionCloseEvent }
        : e.kind === 'antenna'
          ? { type: P.AntennaEvent, fields: { eventType: e.connected ? 1 : 0, antennaId: e.antennaId } }
          : { type: P.ReaderExceptionEvent, fields: { message: e.message } };
  return encodeMessage(MSG.READER_EVENT_NOTIFICATION, id, encodeParams([{ type: P.ReaderEventNotificationData, params: [{ type: P.UTCTimestamp, fields: { microseconds: nowUs } }, event] }]));
}

// ---- tag reports (13.2.3) ----

export interface TagRead {
  /** Upper-case hex. */
  epc: string;
  antennaId: number | null;
  /** dBm: Impinj's hundredths when given, else the standard PeakRSSI. */
  peakRssi: number | null;
  firstSeenUs: number | null;
  lastSeenUs: number | null;
  seenCount: number | null;
  channelIndex: number | null;
  /** RF phase angle in degrees (0-360): Impinj's ImpinjRFPhaseAngle, the IoT interface's phaseAngle. */
  phaseAngle: number | null;
  /** The tag's TID (upper-case hex): Impinj's ImpinjSerializedTID, the IoT interface's tidHex. */
  tid: string | null;
  /** Where the reader located the tag (metres, facility coordinates): Impinj's ImpinjLocationReportData. */
  x?: number | null;
  y?: number | null;
}

/**
 * RO_ACCESS_REPORT's tag reads. The hot path of the connector: TagReportData
 * is walked in place (TV lengths from the table, TLVs by their length), no
 * parameter tree is built. Unknown TLV and custom parameters are skipped.
 */
export function decodeTagReads(body: Buffer): TagRead[] {
  const out: TagRead[] = [];
  let at = 0;
  const end = body.length;
  while (at < end) {
    const [type, start, next] = tlvAt(body, at, end);
    if (type === P.TagReportData) {
      const read = decodeTagReportData(body, start, next);
      if (read !== null) out.push(read);
    }
    at = next;
  }
  // A reader locating tags reports each as ImpinjExtendedTagInformation beside the TagReportData; an EXIT says it left, not where it is.
  for (const l of decodeLocationReads(body)) {
    if (l.type === IMPINJ_VALUES.LOCATION_EXIT) continue;
    out.push({ epc: l.epc, antennaId: null, peakRssi: null, firstSeenUs: l.timestampUs, lastSeenUs: l.timestampUs, seenCount: 1, channelIndex: null, phaseAngle: null, tid: null, x: l.x, y: l.y });
  }
  return out;
}

function tlvAt(buf: Buffer, at: number, end: number): [type: number, valueStart: number, next: number] {
  if (buf.readUInt8(at) & 0x80) throw new LlrpDecodeError(`TV parameter where a TLV was expected at byte ${at}`);
  if (at + 4 > end) throw new LlrpDecodeError(`truncated parameter header at byte ${at}`);
  const length = buf.readUInt16BE(at + 2);
  if (length < 4 || at + length > end) throw new LlrpDecodeError(`parameter length ${length} outside its container at byte ${at}`);
  return [buf.readUInt16BE(at) & 0x3ff, at + 4, at + length];
}

const readUs = (b: Buffer, at: number): number => b.readUInt32BE(at) * 4294967296 + b.readUInt32BE(at + 4);

function decodeTagReportData(b: Buffer, start: number, end: number): TagRead | null {
  const r: TagRead = { epc: '', antennaId: null, peakRssi: null, firstSeenUs: null, lastSeenUs: null, seenCount: null, channelIndex: null, phaseAngle: null, tid: null };
  let impinjRssi: number | null = null;
  let at = start;
  while (at < end) {
    const first = b[at] as number;
    if (first & 0x80) {
      at = readTvParameter(b, at, end, r);
      continue;
    }
    const [type, v, next] = tlvAt(b, at, end);
    if (type === P.EPCData && next - v >= 2) {
      const bits = b.readUInt16BE(v);
      const bytesLen = Math.ceil(bits / 8);
      if (v + 2 + bytesLen > next) throw new LlrpDecodeError('EPCData shorter than its bit count');
      r.epc = b.toString('hex', v + 2, v + 2 + bytesLen).toUpperCase();
    } else if (type === P.C1G2ReadOpSpecResult && next - v >= 5) {
      // Result (0 = success), OpSpecID, word count, the words: the TID read of tagtrail's AccessSpec (access.ts).
      const words = b.readUInt16BE(v + 3);
      if (v + 5 + words * 2 > next) throw new LlrpDecodeError('C1G2ReadOpSpecResult shorter than its word count');
      if (b.readUInt8(v) === 0 && b.readUInt16BE(v + 1) === TID_OPSPEC_ID && words > 0) r.tid ??= b.toString('hex', v + 5, v + 5 + words * 2).toUpperCase();
    } else if (type === P.Custom && next - v >= 8 && b.readUInt32BE(v) === IMPINJ.VENDOR) {
      const subtype = b.readUInt32BE(v + 4);
      if (subtype === IMPINJ.PeakRSSI && next - v >= 10) impinjRssi = b.readInt16BE(v + 8) / 100;
      else if (subtype === IMPINJ.RFPhaseAngle && next - v >= 10) r.phaseAngle = ((b.readUInt16BE(v + 8) & 0xfff) * 360) / 4096;
      else if (subtype === IMPINJ.SerializedTID && next - v >= 10) {
        const words = b.readUInt16BE(v + 8);
        if (v + 10 + words * 2 > next) throw new LlrpDecodeError('ImpinjSerializedTID shorter than its word count');
        if (words > 0) r.tid = b.toString('hex', v + 10, v + 10 + words * 2).toUpperCase();
      }
    }
    at = next;
  }
  if (impinjRssi !== null) r.peakRssi = impinjRssi;
  return r.epc === '' ? null : r;
}

/** One TV parameter of TagReportData into `r`; answers the offset after it. */
function readTvParameter(b: Buffer, at: number, end: number, r: TagRead): number {
  const type = (b[at] as number) & 0x7f;
  const n = TV_VALUE_BYTES[type] as number;
  if (n === 0) throw new LlrpDecodeError(`unknown TV parameter type ${type} in TagReportData`);
  if (at + 1 + n > end) throw new LlrpDecodeError(`TV parameter ${type} runs past TagReportData`);
  const v = at + 1;
  switch (type) {
    case TV.EPC96:
      r.epc = b.toString('hex', v, v + 12).toUpperCase();
      break;
    case TV.AntennaID:
      r.antennaId = b.readUInt16BE(v);
      break;
    case TV.PeakRSSI:
      r.peakRssi = b.readInt8(v);
      break;
    case TV.FirstSeenTimestampUTC:
      r.firstSeenUs = readUs(b, v);
      break;
    case TV.LastSeenTimestampUTC:
      r.lastSeenUs = readUs(b, v);
      break;
    case TV.TagSeenCount:
      r.seenCount = b.readUInt16BE(v);
      break;
    case TV.ChannelIndex:
      r.channelIndex = b.readUInt16BE(v);
      break;
    default:
      break;
  }
  return v + n;
}

/** One TagReportData as a reader encodes it (the simulator; EPC-96 as TV, others as EPCData). */
export function tagReportData(t: { epc: string; antennaId: number; peakRssiCdbm: number; firstSeenUs: number; lastSeenUs: number; seenCount: number; roSpecId: number; impinjPeakRssi: boolean; phaseAngle?: number | null; tid?: string | null }): ParamInput {
  const epc = Buffer.from(t.epc, 'hex');
  const tv = (type: number, value: Buffer): ParamInput => ({ tv: type, value });
  const us = (n: number): Buffer => {
    const x = Buffer.alloc(8);
    x.writeBigUInt64BE(BigInt(Math.floor(n)), 0);
    return x;
  };
  const params: ParamInput[] = [
    epc.length === 12 ? tv(TV.EPC96, epc) : { type: P.EPCData, fields: { epc } },
    tv(TV.ROSpecID, u32(t.roSpecId)),
    tv(TV.AntennaID, u16(t.antennaId)),
    tv(TV.PeakRSSI, Buffer.from([Math.max(-128, Math.min(127, Math.round(t.peakRssiCdbm / 100))) & 0xff])),
    tv(TV.FirstSeenTimestampUTC, us(t.firstSeenUs)),
    tv(TV.LastSeenTimestampUTC, us(t.lastSeenUs)),
    tv(TV.TagSeenCount, u16(Math.min(0xffff, t.seenCount))),
  ];
  if (t.impinjPeakRssi) {
    const d = Buffer.alloc(2);
    d.writeInt16BE(Math.round(t.peakRssiCdbm), 0);
    params.push(customParam(IMPINJ.VENDOR, IMPINJ.PeakRSSI, d));
  }
  if (t.phaseAngle !== undefined && t.phaseAngle !== null) params.push(customParam(IMPINJ.VENDOR, IMPINJ.RFPhaseAngle, u16(Math.round((t.phaseAngle / 360) * 4096) & 0xfff)));
  if (t.tid !== undefined && t.tid !== null) {
    const tid = Buffer.from(t.tid, 'hex');
    params.push(customParam(IMPINJ.VENDOR, IMPINJ.SerializedTID, Buffer.concat([u16(tid.length >> 1), tid.subarray(0, tid.length & ~1)])));
  }
  return { type: P.TagReportData, params };
}

export const roAccessReport = (id: number, reads: readonly ParamInput[]): Buffer => encodeMessage(MSG.RO_ACCESS_REPORT, id, encodeParams(reads));
