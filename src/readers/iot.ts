// The Impinj IoT device interface (R700 and later, firmware 7.x/8.x: a REST
// interface on the reader under /api/v1, HTTP Basic), as tagtrail uses it:
// a job's reader configuration as an inventory preset, and the reader's tag
// events as tag reads. Pure. Field names follow the reader's API document
// (its `/api/v1/openapi.json` describes the reader's own limits).
import * as E from 'fp-ts/Either';
import type { ReaderConfigDetails } from '../readerconfigurations';
import type { TagRead } from '../llrp';
import { RF_MODE_OF } from './plan';

export const TAGTRAIL_PRESET = 'tagtrail';

/** inventorySearchMode of the IoT interface for tagtrail's search modes. */
const SEARCH_MODES: Readonly<Record<string, string>> = {
  SINGLE_TARGET: 'single-target',
  DUAL_TARGET: 'dual-target',
  TAG_FOCUS: 'single-target-with-suppression',
};

export interface IotAntennaConfig {
  antennaPort: number;
  transmitPowerCdbm?: number;
  rfMode?: number;
  inventorySession: number;
  inventorySearchMode?: string;
  estimatedTagPopulation?: number;
  filtering?: { filters: Array<{ action: string; tagMemoryBank: string; bitOffset: number; mask: string; maskLength: number }> };
}

export interface IotPreset {
  eventConfig: Record<string, unknown>;
  antennaConfigs: IotAntennaConfig[];
}

const BANKS = ['reserved', 'epc', 'tid', 'user'];

/** The preset for a reader configuration (antennas default to ports 1-4), or why the reader cannot run it. */
export function planPreset(operation: string, cfg: ReaderConfigDetails): E.Either<string, IotPreset> {
  if (operation !== 'INVENTORY' && operation !== 'NORMAL') return E.left(`operation ${operation} is not available over the IoT interface: tagtrail runs INVENTORY there`);
  if (cfg.polarization === true) return E.left('polarization is not available over the IoT interface');
  if (cfg.channelConfig !== undefined) return E.left('channelConfig is not supported over the IoT interface');
  const rfMode = RF_MODE_OF[cfg.readerMode];
  if (rfMode === undefined) return E.left(`readerMode ${cfg.readerMode} has no IoT rfMode`);
  let search: string | undefined;
  if (cfg.searchMode !== undefined && cfg.searchMode !== 'READER_SELECTED') {
    search = SEARCH_MODES[cfg.searchMode];
    if (search === undefined) return E.left(`searchMode ${cfg.searchMode} is not supported over the IoT interface`);
  }
  const ports = (cfg.antennas && cfg.antennas.length > 0 ? [...cfg.antennas] : [1, 2, 3, 4]).filter((a) => !(cfg.disabledAntennas ?? []).includes(a));
  if (ports.length === 0) return E.left('every antenna is disabled');
  const filter = cfg.filter;
  return E.right({
    eventConfig: { common: { hostname: 'disabled' }, tagInventory: { tagReporting: { reportingIntervalSeconds: 0, antennaIdentifier: 'antennaPort', tagIdentifier: 'epc' }, epc: 'disabled', epcHex: 'enabled', antennaPort: 'enabled', peakRssiCdbm: 'enabled', phaseAngle: cfg.reportConfig?.phaseAngleIncluded === true ? 'enabled' : 'disabled', tidHex: cfg.reportConfig?.tidIncluded === true ? 'enabled' : 'disabled', lastSeenTime: 'enabled' } },
    antennaConfigs: ports.map((antennaPort) => ({
      antennaPort,
      ...(cfg.transmitPowerInDbm === undefined ? {} : { transmitPowerCdbm: Math.round(cfg.transmitPowerInDbm * 100) }),
      rfMode,
      inventorySession: cfg.session,
      ...(search === undefined ? {} : { inventorySearchMode: search }),
      ...(cfg.tagPopulationEstimate === undefined ? {} : { estimatedTagPopulation: cfg.tagPopulationEstimate }),
      ...(filter === undefined ? {} : { filtering: { filters: [{ action: 'include', tagMemoryBank: BANKS[filter.memoryBank] ?? 'epc', bitOffset: filter.pointer, mask: filter.tagMask, maskLength: filter.tagMask.length * 4 }] } }),
    })),
  });
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);
const HEX = /^[0-9A-Fa-f]+$/;

/**
 * A tag read from one IoT event, or null for any other event (status,
 * antenna, inventory state: tagtrail does not store them) or a tag event it
 * cannot read. Times are the reader's (`lastSeenTime`, else `timestamp`);
 * `phaseAngle` (degrees) and `tidHex` when the preset asked for them.
 */
export function tagReadOf(event: unknown): TagRead | null {
  if (!isRecord(event) || event['eventType'] !== 'tagInventory' || !isRecord(event['tagInventoryEvent'])) return null;
  const t = event['tagInventoryEvent'];
  let epc = typeof t['epcHex'] === 'string' ? t['epcHex'] : '';
  if (epc === '' && typeof t['epc'] === 'string') epc = Buffer.from(t['epc'], 'base64').toString('hex');
  if (epc === '' || !HEX.test(epc)) return null;
  const when = Date.parse(String(t['lastSeenTime'] ?? event['timestamp'] ?? ''));
  const us = Number.isNaN(when) ? null : when * 1000;
  const antenna = typeof t['antennaPort'] === 'number' ? t['antennaPort'] : null;
  const rssi = typeof t['peakRssiCdbm'] === 'number' ? t['peakRssiCdbm'] / 100 : null;
  // Degrees; a value outside a turn is not a phase.
  const phase = t['phaseAngle'];
  const phaseAngle = typeof phase === 'number' && phase >= 0 && phase <= 360 ? phase : null;
  const tid = typeof t['tidHex'] === 'string' && t['tidHex'] !== '' && HEX.test(t['tidHex']) ? t['tidHex'].toUpperCase() : null;
  return { epc: epc.toUpperCase(), antennaId: antenna, peakRssi: rssi, firstSeenUs: us, lastSeenUs: us, seenCount: 1, channelIndex: null, phaseAngle, tid };
}
