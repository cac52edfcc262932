// The Impinj IoT device interface (R700 and later, firmware 7.x/8.x: a REST
// interface on the reader under /api/v1, HTTP Basic), as tagtrail uses it:
// a job's reader configuration as an inventory preset, and the reader's tag
// events as tag reads. Pure. Field names follow the reader's API document
// (its `/api/v1/openapi.json` describes the reader's own limits).
import { createHash } from 'node:crypto';
import * as E from 'fp-ts/Either';
import type { ReaderConfigDetails } from '../readerconfigurations';
import type { TagRead } from '../llrp';
import { RF_MODE_OF } from './plan';

export const TAGTRAIL_PRESET = 'tagtrail';

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);

/**
 * inventorySearchMode of the IoT interface for tagtrail's search modes. The interface has no
 * B-to-A select: DUAL_TARGET_WITH_BTOASELECT (the factory THRESHOLD configuration's) runs as
 * dual-target, which also reads every tag again from the B state. READER_SELECTED (or none) is
 * dual-target too: the member is required, and dual-target is what a reader's own presets use.
 */
const SEARCH_MODES: Readonly<Record<string, string>> = {
  READER_SELECTED: 'dual-target',
  SINGLE_TARGET: 'single-target',
  DUAL_TARGET: 'dual-target',
  TAG_FOCUS: 'single-target-with-suppression',
  DUAL_TARGET_WITH_BTOASELECT: 'dual-target',
};

/** estimatedTagPopulation when the configuration gives no tagPopulationEstimate (the member is required). */
export const DEFAULT_TAG_POPULATION = 16;

/**
 * transmitPowerCdbm when the configuration gives no power and the reader's preset schema states no
 * maximum: 30 dBm, the lowest of an R700's maximums (802.3af PoE; docs/defaults.md).
 */
export const FALLBACK_MAX_POWER_CDBM = 3000;

export interface IotAntennaConfig {
  antennaPort: number;
  transmitPowerCdbm: number;
  rfMode: number;
  inventorySession: number;
  inventorySearchMode: string;
  estimatedTagPopulation: number;
  filtering?: { filters: Array<{ action: string; tagMemoryBank: string; bitOffset: number; mask: string; maskLength: number }> };
  fastId?: 'enabled';
}

export interface IotPreset {
  eventConfig: Record<string, unknown>;
  antennaConfigs: IotAntennaConfig[];
}

/** What the link knows of the reader and the job beside the configuration. */
export interface PresetContext {
  /** The reader's highest transmit power in its region (its preset schema), sent when the configuration gives none. */
  readonly maxPowerCdbm: number;
  /** THRESHOLD: the antennas the job's thresholds name for this reader (door.ts, the door plan). */
  readonly doorAntennas?: readonly number[];
}

/** The interface's memory banks for tagtrail's numbers (1 EPC, 2 TID, 3 user; the reserved bank cannot be filtered on). */
const BANKS: Readonly<Record<number, string>> = { 1: 'epc', 2: 'tid', 3: 'user' };

const toggle = (on: boolean): string => (on ? 'enabled' : 'disabled');

/**
 * The preset for a reader configuration, or why the reader cannot run it. INVENTORY (and NORMAL)
 * read with `antennas` (ports 1-4 by default) minus `disabledAntennas`; THRESHOLD with the door
 * antennas of the job. Every antenna states its power: the configuration's, else the reader's
 * maximum. A TID needs fastId on the antennas, which has the reader read it with the EPC.
 */
export function planPreset(operation: string, cfg: ReaderConfigDetails, reader: PresetContext): E.Either<string, IotPreset> {
  const door = operation === 'THRESHOLD';
  if (!door && operation !== 'INVENTORY' && operation !== 'NORMAL') return E.left(`operation ${operation} is not available over the IoT interface: tagtrail runs INVENTORY and THRESHOLD there`);
  if (door && reader.doorAntennas === undefined) return E.left('a THRESHOLD job needs the antennas its thresholds name for the reader');
  if (cfg.polarization === true) return E.left('polarization is not available over the IoT interface');
  if (cfg.channelConfig !== undefined) return E.left('channelConfig is not supported over the IoT interface');
  const rfMode = RF_MODE_OF[cfg.readerMode];
  if (rfMode === undefined) return E.left(`readerMode ${cfg.readerMode} has no IoT rfMode`);
  const search = SEARCH_MODES[cfg.searchMode ?? 'READER_SELECTED'];
  if (search === undefined) return E.left(`searchMode ${cfg.searchMode} is not supported over the IoT interface`);
  const asked = door ? [...(reader.doorAntennas ?? [])] : cfg.antennas && cfg.antennas.length > 0 ? [...cfg.antennas] : [1, 2, 3, 4];
  const ports = asked.filter((a) => !(cfg.disabledAntennas ?? []).includes(a));
  if (ports.length === 0) return E.left('every antenna is disabled');
  const filter = cfg.filter;
  let filtering: IotAntennaConfig['filtering'];
  if (filter !== undefined) {
    const bank = BANKS[filter.memoryBank];
    if (bank === undefined) return E.left(`filter.memoryBank ${filter.memoryBank} cannot be filtered on over the IoT interface (epc 1, tid 2 or user 3)`);
    filtering = { filters: [{ action: 'include', tagMemoryBank: bank, bitOffset: filter.pointer, mask: filter.tagMask, maskLength: filter.tagMask.length * 4 }] };
  }
  const tid = cfg.reportConfig?.tidIncluded === true;
  const tagInventory = {
    tagReporting: { reportingIntervalSeconds: 0, antennaIdentifier: 'antennaPort', tagIdentifier: 'epc' },
    epc: 'disabled', epcHex: 'enabled', antennaPort: 'enabled', peakRssiCdbm: 'enabled', lastSeenTime: 'enabled',
    phaseAngle: toggle(cfg.reportConfig?.phaseAngleIncluded === true),
    tidHex: toggle(tid),
  };
  return E.right({
    eventConfig: { common: { hostname: 'disabled' }, tagInventory },
    antennaConfigs: ports.map((antennaPort) => ({
      antennaPort,
      transmitPowerCdbm: cfg.transmitPowerInDbm === undefined ? reader.maxPowerCdbm : Math.round(cfg.transmitPowerInDbm * 100),
      rfMode,
      inventorySession: cfg.session,
      inventorySearchMode: search,
      estimatedTagPopulation: cfg.tagPopulationEstimate ?? DEFAULT_TAG_POPULATION,
      ...(filtering === undefined ? {} : { filtering }),
      ...(tid ? { fastId: 'enabled' as const } : {}),
    })),
  });
}

/**
 * The highest transmitPowerCdbm a reader's preset schema (GET /profiles/inventory/presets-schema,
 * which the reader fills with its region's limits) allows: the largest numeric `maximum` of a
 * `transmitPowerCdbm` member anywhere in it, or null when it states none.
 */
export function maxPowerOf(schema: unknown): number | null {
  let best: number | null = null;
  const walk = (u: unknown, depth: number): void => {
    if (depth > 32 || typeof u !== 'object' || u === null) return;
    for (const [k, v] of Object.entries(u)) {
      if (k === 'transmitPowerCdbm' && isRecord(v) && typeof v['maximum'] === 'number' && Number.isInteger(v['maximum'])) best = Math.max(best ?? -Infinity, v['maximum']);
      walk(v, depth + 1);
    }
  };
  walk(schema, 0);
  return best;
}

/** PUT /webhooks/event: the reader posts its events to `url` with HTTP Basic (EventWebhookConfiguration). */
export const webhookSettings = (url: string, username: string, password: string): Record<string, unknown> => ({
  active: true,
  serverConfiguration: { url, authentication: { username, password } },
});

/**
 * PUT /mqtt (MqttConfiguration): a client id of letters and digits, at most 23 (the interface's
 * limit, MQTT 3.1's too), derived from `clientKey` so it stays the reader's across restarts.
 */
export const mqttSettings = (broker: URL, topic: string, clientKey: string): Record<string, unknown> => ({
  active: true,
  brokerHostname: broker.hostname,
  brokerPort: Number(broker.port || 1883),
  clientId: `tt${createHash('sha256').update(clientKey).digest('hex').slice(0, 21)}`,
  eventTopic: topic,
  eventQualityOfService: 1,
  cleanSession: false,
});

/** PUT /system/time (SystemTime): RFC 3339 in UTC. */
export const systemTimeBody = (now: Date): { systemTime: string } => ({ systemTime: now.toISOString() });

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
