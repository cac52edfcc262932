// A job's reader configuration turned into the ROSpec an LLRP reader runs
// (docs/readers.md, "What maps to what"), through what the reader said it
// can do (GET_READER_CAPABILITIES): its antenna count, transmit power table
// and RF mode table. Pure. What the reader cannot do is a Left naming the
// setting and the reader's limit; the job records it for that reader.
import * as E from 'fp-ts/Either';
import type { ReaderConfigDetails } from '../readerconfigurations';
import { IMPINJ, type AntennaPlan, type Capabilities, type LocationPlan, type RoSpec } from '../llrp';
import { thresholdJobContext } from '../engine';
import type { ThresholdRecipe } from '../recipes';
import type { AntennaConfiguration, Threshold } from '../thresholds';

/**
 * Reader modes as Impinj numbers them in the RF mode table (ModeIdentifier):
 * Octane's modes 0-4, and the AutoSet modes. tagtrail sends the identifier
 * as the ModeIndex of C1G2RFControl, which is how Impinj readers read it.
 */
export const RF_MODE_OF: Readonly<Record<string, number>> = {
  MAX_THROUGHPUT: 0,
  HYBRID: 1,
  DENSE_READER_M4: 2,
  DENSE_READER_M8: 3,
  MAX_MILLER: 4,
  DENSE_READER_M4_TWO: 5,
  AUTOSET_DENSE_READER: 1000,
  MODE_1002: 1002,
  MODE_1003: 1003,
  MODE_1004: 1004,
};

/** Impinj InventorySearchMode values (0 reader selected, 1 single target, 2 dual target, 3 single target with suppression). */
export const SEARCH_MODE_OF: Readonly<Record<string, number>> = { READER_SELECTED: 0, SINGLE_TARGET: 1, DUAL_TARGET: 2, TAG_FOCUS: 3 };

export const TAGTRAIL_ROSPEC_ID = 0x7474; // "tt": recognisable in a reader's ROSpec list

/**
 * How long one report of a THRESHOLD reader may fold reads for. The direction
 * engine places an observation at the middle of its first and last sighting
 * and weighs it in 250 ms bins (src/engine/threshold/decide.ts); an
 * observation spanning more than two bins smears the moment a tag went from
 * one side's antennas to the other's. Agent readers report doors every 500 ms;
 * readers of every other protocol are held to the same.
 */
export const THRESHOLD_REPORT_INTERVAL_MS = 500;

/** What a reader runs for a THRESHOLD job, whatever its protocol. */
export interface DoorPlan {
  /** The reader's antennas a threshold of the job names as facing in or out, ascending: exactly those the engine classifies. */
  readonly antennaIds: readonly number[];
  /** Longest span of reads one report may fold (THRESHOLD_REPORT_INTERVAL_MS). */
  readonly reportIntervalMs: number;
}

export interface DoorPlanInput {
  readonly reader: string;
  readonly recipe: ThresholdRecipe;
  readonly facility: string;
  readonly thresholds: readonly Threshold[];
  readonly antennaConfigurations: readonly AntennaConfiguration[];
}

/**
 * The antennas and reporting timing of a reader in a THRESHOLD job: from the
 * antenna configuration the job's thresholds give this reader (its `in` and
 * `out` lists; `ignored` antennas are not run). The engine's own mapping is
 * used, so the reader reads exactly the antennas whose reads count. A reader
 * no threshold of the job gives an in or out antenna is a Left naming that.
 */
export function thresholdDoorPlan(input: DoorPlanInput): E.Either<string, DoorPlan> {
  const ctx = thresholdJobContext({ jobId: '', facility: input.facility, recipe: input.recipe, thresholds: input.thresholds, antennaConfigurations: input.antennaConfigurations, reportToDatabaseEnabled: false, reportToMessageQueueEnabled: false });
  const ids = [...(ctx.antennas.get(input.reader)?.keys() ?? [])].sort((a, b) => a - b);
  if (ids.length === 0) return E.left(`no threshold of the job gives reader ${input.reader} an antenna facing in or out (check the thresholds' antenna configurations)`);
  // A polarized beam id is reported only by an xArray or xSpan driven by its agent. A reader tagtrail drives reports its
  // reads by port, and a port's reads never count for a polarized id (the engine maps a polarized read to its port, not
  // the other way), so such a door would see nothing.
  const polarized = ids.filter((a) => a > 1000);
  if (polarized.length > 0) {
    const ports = [...new Set(polarized.map((a) => a % 1000))].join(', ');
    return E.left(`the thresholds' antenna configuration gives reader ${input.reader} polarized beam ids (${polarized.join(', ')}), which only a reader driven by its agent reports; over LLRP and the IoT interface the reader reports its ports (here ${ports}), whose reads would count for neither side: list the ports instead`);
  }
  return E.right({ antennaIds: ids, reportIntervalMs: THRESHOLD_REPORT_INTERVAL_MS });
}

export interface PlanInput {
  readonly operation: string;
  readonly configuration: ReaderConfigDetails;
  readonly capabilities: Capabilities;
  /** THRESHOLD: the door's antennas of this reader (thresholdDoorPlan); they replace `antennas`. */
  readonly door?: DoorPlan;
  /** LOCATION: where the reader stands (its definition's placement: metres, yaw in degrees), told to the reader. */
  readonly placement?: LocationPlan['placement'] | null;
}

/** How often a reader locating tags reports each one: the shortest reportingInterval a LOCATION recipe takes. */
export const LOCATION_REPORT_SECONDS = 1;

function locationRoSpec(input: PlanInput, modeIndex: number, impinj: boolean): E.Either<string, RoSpec> {
  const { configuration: cfg, capabilities: caps } = input;
  if (caps.computesLocations !== true) {
    return E.left(`LOCATION needs a reader that computes tag locations itself (an Impinj xArray or xSpan, which reports ImpinjxArrayCapabilities); this reader (manufacturer ${caps.manufacturer}, model ${caps.model}) does not`);
  }
  if (input.placement == null) return E.left('LOCATION needs the reader definition\'s placement: the reader is told where it stands to place tags in the facility');
  if ((cfg.disabledAntennas ?? []).length > 0) return E.left('disabledAntennas is not available for LOCATION over LLRP: the reader chooses its own beams');
  if (cfg.filter !== undefined || cfg.transmitPowerInDbm !== undefined) return E.left('filter and transmitPowerInDbm are not available for LOCATION over LLRP');
  return E.right({
    roSpecId: TAGTRAIL_ROSPEC_ID, startTrigger: 0, durationMs: 0, antennaIds: [0], antennas: [],
    reportTrigger: 1, reportEveryN: 1, impinjPeakRssi: impinj, impinjPhase: false, impinjTid: false,
    location: { modeIndex, session: cfg.session, reportIntervalSeconds: LOCATION_REPORT_SECONDS, placement: input.placement },
  });
}

const dbm = (n: number): string => `${Math.round(n * 100) / 100} dBm`;

/**
 * The TransmitPowerLevelTable index for `wanted` dBm. Unset: the table's highest level, the
 * reader's maximum in its region (the reader lists only what its region allows), so the power is
 * always stated and a reader never keeps what an earlier host left; a reader with no table (null)
 * gets no RFTransmitter.
 */
function powerIndex(wanted: number | undefined, c: Capabilities): E.Either<string, number | null> {
  const table = [...c.transmitPower].sort((a, b) => a.dbm - b.dbm);
  const lowest = table[0];
  const highest = table[table.length - 1];
  if (wanted === undefined) return E.right(highest?.index ?? null);
  if (lowest === undefined || highest === undefined) return E.left('the reader reports no transmit power table, so transmitPowerInDbm cannot be set');
  if (wanted > highest.dbm + 1e-6) return E.left(`transmitPowerInDbm ${dbm(wanted)} is above the reader's maximum ${dbm(highest.dbm)}`);
  if (wanted < lowest.dbm - 1e-6) return E.left(`transmitPowerInDbm ${dbm(wanted)} is below the reader's minimum ${dbm(lowest.dbm)}`);
  // The highest level not above the one asked for: never more power than configured.
  const entry = table.filter((e) => e.dbm <= wanted + 1e-6).pop() ?? lowest;
  return E.right(entry.index);
}

function antennaIds(cfg: ReaderConfigDetails, c: Capabilities, door: DoorPlan | undefined): E.Either<string, number[]> {
  const all = Array.from({ length: c.maxAntennas }, (_, i) => i + 1);
  const asked = door !== undefined ? [...door.antennaIds] : cfg.antennas && cfg.antennas.length > 0 ? [...cfg.antennas] : all;
  const bad = [...asked, ...(cfg.disabledAntennas ?? [])].filter((a) => !all.includes(a));
  if (bad.length > 0) return E.left(`antenna ${bad.join(', ')} not on the reader: it has antennas 1-${c.maxAntennas}`);
  const ids = asked.filter((a) => !(cfg.disabledAntennas ?? []).includes(a));
  if (ids.length === 0) return E.left('every antenna is disabled');
  return E.right(ids);
}

export function planRoSpec(input: PlanInput): E.Either<string, RoSpec> {
  const { configuration: cfg, capabilities: caps } = input;
  if (input.operation === 'THRESHOLD' && input.door === undefined) return E.left('THRESHOLD needs the antennas of the job\'s thresholds for this reader');
  if (!['INVENTORY', 'NORMAL', 'THRESHOLD', 'LOCATION'].includes(input.operation)) {
    return E.left(`operation ${input.operation} is not available over LLRP: tagtrail runs INVENTORY, NORMAL, THRESHOLD and (on readers that locate tags) LOCATION on LLRP readers`);
  }
  if (cfg.polarization === true) return E.left('polarization needs the beam antennas of an xArray/xSpan driven by its agent; not available over LLRP');
  if (cfg.channelConfig !== undefined) return E.left('channelConfig is not supported over LLRP');
  const impinj = caps.manufacturer === IMPINJ.VENDOR;
  const mode = RF_MODE_OF[cfg.readerMode];
  if (mode === undefined || !caps.rfModes.includes(mode)) {
    return E.left(`readerMode ${cfg.readerMode} (RF mode ${mode ?? '?'}) is not in the reader's RF mode table (${caps.rfModes.join(', ') || 'empty'})`);
  }
  if (input.operation === 'LOCATION') return locationRoSpec(input, mode, impinj);
  let searchMode: number | null = null;
  if (cfg.searchMode !== undefined && cfg.searchMode !== 'READER_SELECTED') {
    if (!impinj) return E.left(`searchMode ${cfg.searchMode} is an Impinj extension; this reader (manufacturer ${caps.manufacturer}) does not offer it`);
    const m = SEARCH_MODE_OF[cfg.searchMode];
    if (m === undefined) return E.left(`searchMode ${cfg.searchMode} is not supported over LLRP`);
    searchMode = m;
  }
  let filter: AntennaPlan['filter'] = null;
  if (cfg.filter !== undefined) {
    if (cfg.filter.tagMask.length % 2 !== 0) return E.left('filter.tagMask must have an even number of hex digits over LLRP (whole bytes)');
    filter = { memoryBank: cfg.filter.memoryBank, pointer: cfg.filter.pointer, mask: Buffer.from(cfg.filter.tagMask, 'hex') };
  }
  const power = powerIndex(cfg.transmitPowerInDbm, caps);
  if (E.isLeft(power)) return power;
  const ids = antennaIds(cfg, caps, input.door);
  if (E.isLeft(ids)) return ids;
  const antennas = ids.right.map((antennaId): AntennaPlan => ({
    antennaId,
    transmitPowerIndex: power.right,
    modeIndex: mode,
    session: cfg.session,
    tagPopulation: cfg.tagPopulationEstimate ?? null,
    impinjSearchMode: searchMode,
    filter,
  }));
  return E.right({
    roSpecId: TAGTRAIL_ROSPEC_ID,
    startTrigger: 0,
    durationMs: 0,
    antennaIds: ids.right.length === caps.maxAntennas ? [0] : ids.right,
    antennas,
    // A report per tag read: tagtrail batches them into one TagsReported per reporting interval.
    reportTrigger: 1,
    reportEveryN: 1,
    impinjPeakRssi: impinj,
    impinjPhase: impinj && cfg.reportConfig?.phaseAngleIncluded === true,
    impinjTid: impinj && cfg.reportConfig?.tidIncluded === true,
    // Other makers' readers have no serialized TID: an AccessSpec reads the TID bank instead.
    accessTid: !impinj && cfg.reportConfig?.tidIncluded === true,
  });
}
