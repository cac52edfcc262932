// Numbers of EPCglobal LLRP 1.0.1 (ratified 2007, also carried by 1.1):
// message types (section 16.1), parameter types (section 16.2) and the value
// lengths of the TV-encoded parameters, which carry no length on the wire
// and can only be skipped when their type is known. Impinj's vendor
// extensions (vendor id 25882, Octane LLRP) are listed where tagtrail uses them.

/** Protocol version in the message header: 1 = LLRP 1.0.1, 2 = LLRP 1.1. */
export const LLRP_VERSION_1_0_1 = 1;
export const HEADER_BYTES = 10;

export const MSG = {
  GET_READER_CAPABILITIES: 1,
  GET_READER_CONFIG: 2,
  SET_READER_CONFIG: 3,
  CLOSE_CONNECTION_RESPONSE: 4,
  GET_READER_CAPABILITIES_RESPONSE: 11,
  GET_READER_CONFIG_RESPONSE: 12,
  SET_READER_CONFIG_RESPONSE: 13,
  CLOSE_CONNECTION: 14,
  ADD_ROSPEC: 20,
  DELETE_ROSPEC: 21,
  START_ROSPEC: 22,
  STOP_ROSPEC: 23,
  ENABLE_ROSPEC: 24,
  DISABLE_ROSPEC: 25,
  ADD_ROSPEC_RESPONSE: 30,
  DELETE_ROSPEC_RESPONSE: 31,
  START_ROSPEC_RESPONSE: 32,
  STOP_ROSPEC_RESPONSE: 33,
  ENABLE_ROSPEC_RESPONSE: 34,
  DISABLE_ROSPEC_RESPONSE: 35,
  ADD_ACCESSSPEC: 40,
  DELETE_ACCESSSPEC: 41,
  ENABLE_ACCESSSPEC: 42,
  ADD_ACCESSSPEC_RESPONSE: 50,
  DELETE_ACCESSSPEC_RESPONSE: 51,
  ENABLE_ACCESSSPEC_RESPONSE: 52,
  GET_REPORT: 60,
  RO_ACCESS_REPORT: 61,
  KEEPALIVE: 62,
  READER_EVENT_NOTIFICATION: 63,
  ENABLE_EVENTS_AND_REPORTS: 64,
  KEEPALIVE_ACK: 72,
  ERROR_MESSAGE: 100,
  CUSTOM_MESSAGE: 1023,
} as const;

/** The response type of each request the host sends. */
export const RESPONSE_OF: Readonly<Record<number, number>> = {
  [MSG.GET_READER_CAPABILITIES]: MSG.GET_READER_CAPABILITIES_RESPONSE,
  [MSG.GET_READER_CONFIG]: MSG.GET_READER_CONFIG_RESPONSE,
  [MSG.SET_READER_CONFIG]: MSG.SET_READER_CONFIG_RESPONSE,
  [MSG.CLOSE_CONNECTION]: MSG.CLOSE_CONNECTION_RESPONSE,
  [MSG.ADD_ROSPEC]: MSG.ADD_ROSPEC_RESPONSE,
  [MSG.DELETE_ROSPEC]: MSG.DELETE_ROSPEC_RESPONSE,
  [MSG.START_ROSPEC]: MSG.START_ROSPEC_RESPONSE,
  [MSG.STOP_ROSPEC]: MSG.STOP_ROSPEC_RESPONSE,
  [MSG.ENABLE_ROSPEC]: MSG.ENABLE_ROSPEC_RESPONSE,
  [MSG.DISABLE_ROSPEC]: MSG.DISABLE_ROSPEC_RESPONSE,
  [MSG.ADD_ACCESSSPEC]: MSG.ADD_ACCESSSPEC_RESPONSE,
  [MSG.DELETE_ACCESSSPEC]: MSG.DELETE_ACCESSSPEC_RESPONSE,
  [MSG.ENABLE_ACCESSSPEC]: MSG.ENABLE_ACCESSSPEC_RESPONSE,
};

/** TLV parameter types used by tagtrail. */
export const P = {
  UTCTimestamp: 128,
  Uptime: 129,
  GeneralDeviceCapabilities: 137,
  ReceiveSensitivityTableEntry: 139,
  PerAntennaAirProtocol: 140,
  GPIOCapabilities: 141,
  LLRPCapabilities: 142,
  RegulatoryCapabilities: 143,
  UHFBandCapabilities: 144,
  TransmitPowerLevelTableEntry: 145,
  FrequencyInformation: 146,
  ROSpec: 177,
  ROBoundarySpec: 178,
  ROSpecStartTrigger: 179,
  PeriodicTriggerValue: 180,
  ROSpecStopTrigger: 182,
  AISpec: 183,
  AISpecStopTrigger: 184,
  InventoryParameterSpec: 186,
  AccessSpec: 207,
  AccessSpecStopTrigger: 208,
  AccessCommand: 209,
  KeepaliveSpec: 220,
  AntennaConfiguration: 222,
  RFReceiver: 223,
  RFTransmitter: 224,
  ROReportSpec: 237,
  TagReportContentSelector: 238,
  AccessReportSpec: 239,
  TagReportData: 240,
  EPCData: 241,
  ReaderEventNotificationSpec: 244,
  EventNotificationState: 245,
  ReaderEventNotificationData: 246,
  ROSpecEvent: 249,
  ReaderExceptionEvent: 252,
  AISpecEvent: 254,
  AntennaEvent: 255,
  ConnectionAttemptEvent: 256,
  ConnectionCloseEvent: 257,
  LLRPStatus: 287,
  FieldError: 288,
  ParameterError: 289,
  C1G2LLRPCapabilities: 327,
  C1G2UHFRFModeTable: 328,
  C1G2UHFRFModeTableEntry: 329,
  C1G2InventoryCommand: 330,
  C1G2Filter: 331,
  C1G2TagInventoryMask: 332,
  C1G2TagInventoryStateUnawareFilterAction: 334,
  C1G2RFControl: 335,
  C1G2SingulationControl: 336,
  C1G2TagSpec: 338,
  C1G2TargetTag: 339,
  C1G2Read: 341,
  C1G2EPCMemorySelector: 348,
  C1G2ReadOpSpecResult: 349,
  Custom: 1023,
} as const;

/** TV parameter types (1-127) and the byte length of their value (section 16.2.7.3 and 15.2.1.5). */
export const TV = {
  AntennaID: 1,
  FirstSeenTimestampUTC: 2,
  FirstSeenTimestampUptime: 3,
  LastSeenTimestampUTC: 4,
  LastSeenTimestampUptime: 5,
  PeakRSSI: 6,
  ChannelIndex: 7,
  TagSeenCount: 8,
  ROSpecID: 9,
  InventoryParameterSpecID: 10,
  C1G2_CRC: 11,
  C1G2_PC: 12,
  EPC96: 13,
  SpecIndex: 14,
  ClientRequestOpSpecResult: 15,
  AccessSpecID: 16,
  OpSpecID: 17,
  C1G2SingulationDetails: 18,
  C1G2XPCW1: 19,
  C1G2XPCW2: 20,
} as const;

/** Value bytes of each TV type (index = type); 0 = not a known TV type. */
export const TV_VALUE_BYTES: readonly number[] = (() => {
  const len = new Array<number>(128).fill(0);
  const set = (type: number, n: number): void => void (len[type] = n);
  set(TV.AntennaID, 2);
  set(TV.FirstSeenTimestampUTC, 8);
  set(TV.FirstSeenTimestampUptime, 8);
  set(TV.LastSeenTimestampUTC, 8);
  set(TV.LastSeenTimestampUptime, 8);
  set(TV.PeakRSSI, 1);
  set(TV.ChannelIndex, 2);
  set(TV.TagSeenCount, 2);
  set(TV.ROSpecID, 4);
  set(TV.InventoryParameterSpecID, 2);
  set(TV.C1G2_CRC, 2);
  set(TV.C1G2_PC, 2);
  set(TV.EPC96, 12);
  set(TV.SpecIndex, 2);
  set(TV.ClientRequestOpSpecResult, 2);
  set(TV.AccessSpecID, 4);
  set(TV.OpSpecID, 2);
  set(TV.C1G2SingulationDetails, 4);
  set(TV.C1G2XPCW1, 2);
  set(TV.C1G2XPCW2, 2);
  return len;
})();

/** LLRPStatus codes (section 14.2.2.1) tagtrail names in messages. */
export const STATUS_NAMES: Readonly<Record<number, string>> = {
  0: 'M_Success', 100: 'M_ParameterError', 101: 'M_FieldError', 102: 'M_UnexpectedParameter', 103: 'M_MissingParameter',
  104: 'M_DuplicateParameter', 105: 'M_OverflowParameter', 106: 'M_OverflowField', 107: 'M_UnknownParameter',
  108: 'M_UnknownField', 109: 'M_UnsupportedMessage', 110: 'M_UnsupportedVersion', 111: 'M_UnsupportedParameter',
  200: 'P_ParameterError', 201: 'P_FieldError', 202: 'P_UnexpectedParameter', 203: 'P_MissingParameter',
  204: 'P_DuplicateParameter', 205: 'P_OverflowParameter', 206: 'P_OverflowField', 207: 'P_UnknownParameter',
  208: 'P_UnknownField', 209: 'P_UnsupportedParameter', 300: 'A_Invalid', 301: 'A_OutOfRange', 401: 'R_DeviceError',
};

/**
 * Impinj's LLRP extensions (Octane LLRP) tagtrail sends or reads: the one
 * table of their numbers. Vendor 25882 is Impinj's IANA private enterprise
 * number; the rest are CUSTOM_MESSAGE subtypes and custom parameter (1023)
 * subtypes under it. Every number is checked against Impinj's own LTK
 * definition file, Impinjdef.xml version 1.18 (Impinj, 2007-2010; public in
 * the GitHub repository esitarski/pyllrp as xml/Impinjdef-1.18-private.xml):
 * its customMessageDefinition / customParameterDefinition `subtype`
 * attributes, under the names used here (subtype 1521 is named
 * ImpinjArrayCapabilities there, ImpinjxArrayCapabilities in later releases).
 * test/llrp/impinj-numbers.unit.spec.ts holds each against frames written by
 * hand from that file.
 */
export const IMPINJ = {
  VENDOR: 25882,
  /** CUSTOM_MESSAGE subtype IMPINJ_ENABLE_EXTENSIONS (u32 reserved). */
  ENABLE_EXTENSIONS: 21,
  /** ImpinjRequestedData: u32 RequestedData (ImpinjRequestedDataType), in GET_READER_CONFIG. */
  RequestedData: 21,
  /** ImpinjInventorySearchMode: u16 (0 reader selected, 1 single target, 2 dual target, 3 single target with suppression). */
  InventorySearchMode: 23,
  /** ImpinjReaderTemperature: s16 degrees Celsius, in GET_READER_CONFIG_RESPONSE. */
  ReaderTemperature: 37,
  /** ImpinjTagReportContentSelector (in ROReportSpec): holds the Enable* parameters below. */
  TagReportContentSelector: 50,
  /** ImpinjEnableSerializedTID, ImpinjEnableRFPhaseAngle, ImpinjEnablePeakRSSI: u16 mode, 1 = enabled. */
  EnableSerializedTID: 51,
  EnableRFPhaseAngle: 52,
  EnablePeakRSSI: 53,
  /** ImpinjSerializedTID: u16v, a word count then the TID words (in TagReportData). */
  SerializedTID: 55,
  /** ImpinjRFPhaseAngle: u16, 0-4095 for a full turn (0-360 degrees). */
  RFPhaseAngle: 56,
  /** ImpinjPeakRSSI: s16 hundredths of a dBm. */
  PeakRSSI: 57,
  /** ImpinjArrayCapabilities (GET_READER_CAPABILITIES_RESPONSE): u32 MaxNumSectors, u1 SupportsLISpecs, u1 SupportsDISpecs, 6 reserved. */
  xArrayCapabilities: 1521,
  /** ImpinjPlacementConfiguration (SET_READER_CONFIG): s16 HeightCm, s32 FacilityXLocationCm, s32 FacilityYLocationCm, s16 OrientationDegrees. */
  PlacementConfiguration: 1540,
  /** ImpinjLISpec (an ROSpec's spec parameter): ImpinjLocationConfig, ImpinjC1G2LocationConfig. */
  LISpec: 1541,
  /** ImpinjLocationConfig: u8 MotionWindowSeconds, u16 TagAgeIntervalSeconds. */
  LocationConfig: 1542,
  /** ImpinjC1G2LocationConfig: u16 ModeIndex, u2 Session, 6 reserved. */
  C1G2LocationConfig: 1543,
  /** ImpinjLocationReporting (in ROReportSpec): u16 ReportIntervalSeconds, u1 EnableLocationUpdateReport, u1 ...EntryReport, u1 ...ExitReport, 5 reserved. */
  LocationReporting: 1544,
  /** ImpinjLocationReportData: u64 TimestampUTC, s32 LocXCentimeters, s32 LocYCentimeters, u16 Confidence, u8 Type (ImpinjLocationReportType). */
  LocationReportData: 1545,
  /** ImpinjExtendedTagInformation (RO_ACCESS_REPORT): EPCData, then ImpinjLocationReportData (among others). */
  ExtendedTagInformation: 1552,
} as const;

/** Values of the definition's enumerations that tagtrail sends or tests. */
export const IMPINJ_VALUES = {
  /** ImpinjRequestedDataType: All_Configuration (the temperature among it) and Impinj_Reader_Temperature. */
  REQUESTED_ALL_CONFIGURATION: 2000,
  REQUESTED_READER_TEMPERATURE: 2004,
  /** ImpinjLocationReportType Exit (Entry is 0, Update 1): the tag left, it says not where it is. */
  LOCATION_EXIT: 2,
} as const;
