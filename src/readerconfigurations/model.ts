// The stored reader configuration: what validation produces, what the
// events carry and what the job runner reads. The codec is the data codec
// of the events, so a document read back from the store is checked too.
// Types are derived from the codecs so the two cannot drift apart.
import * as t from 'io-ts';
import { oneOf } from '../core/codecs';

/**
 * `NORMAL` is the name an earlier revision of the interface used; it is
 * still accepted and stored as given so old clients read back what they
 * wrote. `DO_NOTHING` disables the reader.
 */
export const Operation = t.keyof({ INVENTORY: null, LOCATION: null, THRESHOLD: null, DO_NOTHING: null, NORMAL: null });
export type Operation = t.TypeOf<typeof Operation>;

export const ActiveOperation = t.keyof({ INVENTORY: null, LOCATION: null, THRESHOLD: null, NORMAL: null });
export type ActiveOperation = t.TypeOf<typeof ActiveOperation>;

export const ReaderMode = t.keyof({
  MAX_THROUGHPUT: null,
  HYBRID: null,
  DENSE_READER_M4: null,
  DENSE_READER_M8: null,
  MAX_MILLER: null,
  DENSE_READER_M4_TWO: null,
  AUTOSET_DENSE_READER: null,
  MODE_1002: null,
  MODE_1003: null,
  MODE_1004: null,
});
export type ReaderMode = t.TypeOf<typeof ReaderMode>;

export const SearchMode = t.keyof({
  READER_SELECTED: null,
  SINGLE_TARGET: null,
  DUAL_TARGET: null,
  TAG_FOCUS: null,
  SINGLE_TARGET_BTOA: null,
  DUAL_TARGET_WITH_BTOASELECT: null,
});
export type SearchMode = t.TypeOf<typeof SearchMode>;

export const Session = oneOf([0, 1, 2, 3] as const, '0, 1, 2 or 3');
export type Session = t.TypeOf<typeof Session>;

export const MemoryBank = oneOf([0, 1, 2, 3] as const, '0 (Reserved), 1 (EPC), 2 (TID) or 3 (User)');
export type MemoryBank = t.TypeOf<typeof MemoryBank>;

/** Defaults are applied on validation, so a stored filter is complete. */
export const Filter = t.readonly(t.type({ tagMask: t.string, memoryBank: MemoryBank, pointer: t.number }), 'Filter');
export type Filter = t.TypeOf<typeof Filter>;

export const ChannelConfig = t.readonly(
  t.partial({ channelIndex: t.number, txFrequenciesInMhz: t.readonlyArray(t.number) }),
  'ChannelConfig',
);
export type ChannelConfig = t.TypeOf<typeof ChannelConfig>;

export const REPORT_CONFIG_FLAGS = [
  'tidIncluded',
  'peakRssiIncluded',
  'phaseAngleIncluded',
  'dopplerFrequencyIncluded',
  'channelIncluded',
] as const;
export type ReportConfigFlag = (typeof REPORT_CONFIG_FLAGS)[number];

export const ReportConfig = t.readonly(
  t.partial({
    tidIncluded: t.boolean,
    peakRssiIncluded: t.boolean,
    phaseAngleIncluded: t.boolean,
    dopplerFrequencyIncluded: t.boolean,
    channelIncluded: t.boolean,
  }),
  'ReportConfig',
);
export type ReportConfig = t.TypeOf<typeof ReportConfig>;

/** Details of an active operation; which optional fields may be set depends on it (fields.ts). */
export const ReaderConfigDetails = t.readonly(
  t.intersection([
    t.type({ readerMode: ReaderMode, session: Session }),
    t.partial({
      searchMode: SearchMode,
      filter: Filter,
      tagPopulationEstimate: t.number,
      transmitPowerInDbm: t.number,
      polarization: t.boolean,
      antennas: t.readonlyArray(t.number),
      disabledAntennas: t.readonlyArray(t.number),
      channelConfig: ChannelConfig,
      reportConfig: ReportConfig,
    }),
  ]),
  'ReaderConfigDetails',
);
export type ReaderConfigDetails = t.TypeOf<typeof ReaderConfigDetails>;

export const ActiveReaderConfiguration = t.readonly(
  t.type({ name: t.string, operation: ActiveOperation, configuration: ReaderConfigDetails }),
  'ActiveReaderConfiguration',
);
export type ActiveReaderConfiguration = t.TypeOf<typeof ActiveReaderConfiguration>;

/** A disabled reader uses no setting, so none is kept (see validate.ts). */
export const DisabledReaderConfiguration = t.readonly(
  t.type({ name: t.string, operation: t.literal('DO_NOTHING'), configuration: t.type({}) }),
  'DisabledReaderConfiguration',
);
export type DisabledReaderConfiguration = t.TypeOf<typeof DisabledReaderConfiguration>;

export const ReaderConfiguration = t.union([ActiveReaderConfiguration, DisabledReaderConfiguration], 'ReaderConfiguration');
export type ReaderConfiguration = t.TypeOf<typeof ReaderConfiguration>;
