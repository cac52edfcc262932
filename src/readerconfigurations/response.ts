// The stored reader configuration as the interface returns it. Every field
// the operation takes is present, unset ones as null (spec: "unset optional
// fields may come back as null"); fields of other operations are left out
// (see fields.ts for why), so DO_NOTHING returns `configuration: {}`.
import { fieldsOf, type DetailField } from './fields';
import type {
  Filter,
  Operation,
  ReaderConfiguration,
  ReaderMode,
  ReportConfig,
  ReportConfigFlag,
  SearchMode,
  Session,
} from './model';

export interface ChannelConfigResponse {
  readonly channelIndex: number | null;
  readonly txFrequenciesInMhz: readonly number[] | null;
}

export type ReportConfigResponse = Readonly<Record<ReportConfigFlag, boolean | null>>;

/** The response value of each configuration field. */
export interface DetailResponses {
  readerMode: ReaderMode | null;
  session: Session | null;
  searchMode: SearchMode | null;
  filter: Filter | null;
  tagPopulationEstimate: number | null;
  transmitPowerInDbm: number | null;
  polarization: boolean | null;
  antennas: readonly number[] | null;
  disabledAntennas: readonly number[] | null;
  channelConfig: ChannelConfigResponse | null;
  reportConfig: ReportConfigResponse | null;
}

export interface ReaderConfigurationResponse {
  readonly name: string;
  readonly operation: Operation;
  /** The fields of `fieldsOf(operation)`, each present (null when unset). */
  readonly configuration: Readonly<Partial<DetailResponses>>;
}

export function toResponse(rc: ReaderConfiguration): ReaderConfigurationResponse {
  if (rc.operation === 'DO_NOTHING') return { name: rc.name, operation: rc.operation, configuration: {} };
  const c = rc.configuration;
  const all: DetailResponses = {
    readerMode: c.readerMode,
    session: c.session,
    searchMode: c.searchMode ?? null,
    filter: c.filter ?? null,
    tagPopulationEstimate: c.tagPopulationEstimate ?? null,
    transmitPowerInDbm: c.transmitPowerInDbm ?? null,
    polarization: c.polarization ?? null,
    antennas: c.antennas ?? null,
    disabledAntennas: c.disabledAntennas ?? null,
    channelConfig:
      c.channelConfig === undefined
        ? null
        : {
            channelIndex: c.channelConfig.channelIndex ?? null,
            txFrequenciesInMhz: c.channelConfig.txFrequenciesInMhz ?? null,
          },
    reportConfig: c.reportConfig === undefined ? null : reportConfigResponse(c.reportConfig),
  };
  const configuration: Partial<DetailResponses> = {};
  for (const field of fieldsOf(rc.operation)) copy(configuration, all, field);
  return { name: rc.name, operation: rc.operation, configuration };
}

function copy<K extends DetailField>(to: Partial<DetailResponses>, from: DetailResponses, key: K): void {
  to[key] = from[key];
}

function reportConfigResponse(r: ReportConfig): ReportConfigResponse {
  return {
    tidIncluded: r.tidIncluded ?? null,
    peakRssiIncluded: r.peakRssiIncluded ?? null,
    phaseAngleIncluded: r.phaseAngleIncluded ?? null,
    dopplerFrequencyIncluded: r.dopplerFrequencyIncluded ?? null,
    channelIncluded: r.channelIncluded ?? null,
  };
}
