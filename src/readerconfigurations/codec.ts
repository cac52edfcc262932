// The request body of create / createOrReplace. Decoding checks each
// field's type and its own range; rules that relate fields to each other or
// to the operation live in validate.ts and rules.ts.
//
// Unknown fields are ignored, not refused: the codecs are exact, so
// decoding drops them and they never reach the stored document. Existing
// clients send fields from other revisions of the interface (and Jackson
// clients send whatever their classes hold); refusing them would break
// those clients for no gain.
//
// Every optional field also accepts null meaning "not set", because the
// response returns unset fields as null and a client may send a document it
// read back.
import * as t from 'io-ts';
import { ResourceName, FiniteNumber, HexString, Integer, NonNegativeInteger, PositiveInteger, PositiveNumber, nullable } from '../core/codecs';
import { MemoryBank, Operation, ReaderMode, SearchMode, Session } from './model';

export const FilterBody = t.intersection(
  [
    t.exact(t.type({ tagMask: HexString }), 'Filter'),
    t.exact(t.partial({ memoryBank: nullable(MemoryBank), pointer: nullable(NonNegativeInteger) })),
  ],
  'Filter',
);
export type FilterBody = t.TypeOf<typeof FilterBody>;

export const ChannelConfigBody = t.exact(
  t.partial({ channelIndex: nullable(PositiveInteger), txFrequenciesInMhz: nullable(t.array(PositiveNumber)) }),
  'ChannelConfig',
);
export type ChannelConfigBody = t.TypeOf<typeof ChannelConfigBody>;

const flag = nullable(t.boolean);
export const ReportConfigBody = t.exact(
  t.partial({
    tidIncluded: flag,
    peakRssiIncluded: flag,
    phaseAngleIncluded: flag,
    dopplerFrequencyIncluded: flag,
    channelIncluded: flag,
  }),
  'ReportConfig',
);

/** All fields optional here: which are required depends on the operation (fields.ts). */
export const ReaderConfigDetailsBody = t.exact(
  t.partial({
    readerMode: nullable(ReaderMode),
    session: nullable(Session),
    searchMode: nullable(SearchMode),
    filter: nullable(FilterBody),
    tagPopulationEstimate: nullable(PositiveInteger),
    transmitPowerInDbm: nullable(FiniteNumber),
    polarization: nullable(t.boolean),
    // Ranges depend on polarization: checked in rules.ts.
    antennas: nullable(t.array(Integer)),
    disabledAntennas: nullable(t.array(Integer)),
    channelConfig: nullable(ChannelConfigBody),
    reportConfig: nullable(ReportConfigBody),
  }),
  'ReaderConfigDetails',
);
export type ReaderConfigDetailsBody = t.TypeOf<typeof ReaderConfigDetailsBody>;

export const ReaderConfigurationBody = t.intersection(
  [
    t.exact(t.type({ name: ResourceName, operation: Operation })),
    // Optional for DO_NOTHING only; validate.ts requires it for the others.
    t.exact(t.partial({ configuration: nullable(ReaderConfigDetailsBody) })),
  ],
  'ReaderConfiguration',
);
export type ReaderConfigurationBody = t.TypeOf<typeof ReaderConfigurationBody>;
