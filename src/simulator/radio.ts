// What one reader reads during one reporting window: pure, given the world,
// the reader's settings, a seeded PRNG and the reader's session state (the
// inventoried flags of tags persist from one window to the next).
//
// Model: the reader runs read rounds at a rate set by its reader mode; in
// every round each enabled antenna tries every tag on its floor. RSSI falls
// with log distance (plus Gaussian noise and, with polarization, the tag's
// orientation); the chance of a successful read falls off around the
// sensitivity, so distant tags are missed more and more. Session and search
// mode decide whether a tag that was read answers again (see sessionAllows).
import type { Antenna, Family, ReaderLayout } from './layout';
import { gaussian, rngFor, type Rng } from './prng';
import type { TagPosition, World } from './world';

export type SearchMode = 'READER_SELECTED' | 'SINGLE_TARGET' | 'DUAL_TARGET' | 'TAG_FOCUS' | 'SINGLE_TARGET_BTOA' | 'DUAL_TARGET_WITH_BTOASELECT';

export interface ReadSettings {
  readonly operation: 'INVENTORY' | 'LOCATION';
  readonly readerMode: string;
  readonly session: number;
  readonly searchMode: SearchMode | null;
  readonly polarization: boolean;
  /** Enabled antenna ids (plain or polarized); null = every antenna. */
  readonly antennas: readonly number[] | null;
  readonly disabledAntennas: readonly number[];
  readonly transmitPowerInDbm: number | null;
}

export interface Observation {
  readonly epc: string;
  readonly tid: string | null;
  readonly antennaId: number;
  readonly peakRssi: number;
  readonly readCount: number;
  /** World seconds. */
  readonly firstSeen: number;
  readonly lastSeen: number;
  readonly x: number | null;
  readonly y: number | null;
}

interface TagFlag {
  /** Inventoried flag B (true) or A. */
  b: boolean;
  /** Last round the tag was energised by this reader (world seconds). */
  lastEnergised: number;
  /** Last round the tag was read (session 1 persistence). */
  lastRead: number;
}

/** Per reader, carried from window to window. */
export type SessionState = Map<string, TagFlag>;
export const newSessionState = (): SessionState => new Map();

const ROUNDS_PER_SECOND: Record<string, number> = {
  MAX_THROUGHPUT: 4, HYBRID: 3, MAX_MILLER: 2, MODE_1002: 2, MODE_1003: 2, MODE_1004: 3,
  DENSE_READER_M4: 1, DENSE_READER_M8: 1, DENSE_READER_M4_TWO: 1, AUTOSET_DENSE_READER: 2,
};
export const roundsPerSecond = (mode: string): number => ROUNDS_PER_SECOND[mode] ?? 2;

/** Path-loss exponent per family: beam-steering arrays fall off faster, so beams discriminate. */
const PATH_LOSS: Record<Family, number> = { XARRAY: 30, XSPAN: 28, XPORTAL: 22, SPEEDWAY: 22 };
const LOCATION_NOISE_M: Record<Family, number> = { XARRAY: 0.7, XSPAN: 1.5, XPORTAL: 3, SPEEDWAY: 3 };

export const TAG_HEIGHT = 1;
/** Below this a tag is not even energised. */
export const ENERGISE_DBM = -75;
/** Half the reads succeed at this RSSI. */
export const SENSITIVITY_DBM = -67;
const RSSI_NOISE_DB = 2;
/** Session 1 flags decay after ~1 s; session 2/3 flags persist this long once out of the field. */
const S1_PERSISTENCE = 1;
const S23_PERSISTENCE = 2;

export function meanRssi(family: Family, distance: number, txPowerDbm: number | null): number {
  return -40 + ((txPowerDbm ?? 30) - 30) - PATH_LOSS[family] * Math.log10(Math.max(distance, 0.3));
}

/** The probability that an energised tag at this RSSI answers in a round. */
export function readProbability(rssi: number): number {
  if (rssi < ENERGISE_DBM) return 0;
  return 0.97 / (1 + Math.exp((SENSITIVITY_DBM - rssi) / 1.5));
}

/** Session/search mode: may this tag answer in round k? */
export function sessionAllows(s: ReadSettings, flag: TagFlag, t: number, round: number): boolean {
  if (s.session === 0) return true;
  if (s.session === 1) return !flag.b || t - flag.lastRead >= S1_PERSISTENCE;
  const dual = s.operation === 'LOCATION' || s.searchMode === 'DUAL_TARGET' || s.searchMode === 'DUAL_TARGET_WITH_BTOASELECT';
  if (dual) return flag.b === (round % 2 === 1); // rounds alternate target A / B; a read flips the flag
  return !flag.b; // single target: read once, silent while it stays in the field
}

interface VirtualAntenna {
  readonly reportedId: number;
  readonly port: Antenna;
  /** 'H', 'V' or null (no polarization). */
  readonly pol: 'H' | 'V' | null;
}

/** The antennas a reader uses and the ids it reports (polarized ids 1000+/2000+ port when enabled). */
export function enabledAntennas(reader: ReaderLayout, s: ReadSettings): VirtualAntenna[] {
  const byId = new Map(reader.antennas.map((a) => [a.id, a]));
  const out: VirtualAntenna[] = [];
  const polarized = s.operation === 'INVENTORY' && s.polarization;
  if (s.operation === 'LOCATION') {
    const off = new Set(s.disabledAntennas.map((id) => id % 1000));
    for (const a of reader.antennas) if (!off.has(a.id)) out.push({ reportedId: a.id, port: a, pol: null });
    return out;
  }
  const ids = s.antennas ?? reader.antennas.map((a) => a.id);
  const seen = new Set<number>();
  const add = (reportedId: number, port: Antenna, pol: 'H' | 'V' | null): void => {
    if (seen.has(reportedId)) return;
    seen.add(reportedId);
    out.push({ reportedId, port, pol });
  };
  for (const id of ids) {
    const port = byId.get(id % 1000);
    if (!port) continue; // the family has no such port
    if (!polarized) add(port.id, port, null);
    else if (id > 2000) add(id, port, 'V');
    else if (id > 1000) add(id, port, 'H');
    else {
      add(1000 + port.id, port, 'H');
      add(2000 + port.id, port, 'V');
    }
  }
  return out;
}

/** A tag's orientation in the plane: how well it couples to H and V antennas. */
export const orientationOf = (epc: string): number => rngFor('orientation', epc)() * Math.PI;

function polarizationLossDb(angle: number, pol: 'H' | 'V' | null): number {
  if (pol === null) return 0;
  const gain = pol === 'H' ? Math.abs(Math.cos(angle)) : Math.abs(Math.sin(angle));
  return 20 * Math.log10(Math.max(gain, 0.1));
}

const dist = (a: Antenna, p: TagPosition): number => Math.hypot(a.x - p.x, a.y - p.y, a.z - TAG_HEIGHT);

interface Acc {
  epc: string;
  tid: string | null;
  antennaId: number;
  peak: number;
  count: number;
  first: number;
  last: number;
  sx: number;
  sy: number;
}

export interface WindowInput {
  readonly world: World;
  readonly reader: ReaderLayout;
  readonly settings: ReadSettings;
  /** World seconds, [from, to). */
  readonly from: number;
  readonly to: number;
  readonly seed: number;
  readonly state: SessionState;
}

export function readWindow(w: WindowInput): Observation[] {
  const { reader, settings: s } = w;
  const rng: Rng = rngFor(w.seed, 'reads', reader.name, Math.round(w.from * 1000));
  const antennas = enabledAntennas(reader, s);
  const location = s.operation === 'LOCATION';
  const rps = roundsPerSecond(s.readerMode);
  const accs = new Map<string, Acc>();
  const tids = new Map(w.world.layout.tags.map((t) => [t.epc, t.tid]));
  const orientations = new Map(w.world.layout.tags.map((t) => [t.epc, orientationOf(t.epc)]));
  for (let k = Math.ceil(w.from * rps - 1e-9); k / rps < w.to - 1e-9; k++) {
    const t = k / rps;
    for (const tag of w.world.layout.tags) {
      const pos = w.world.positionAt(tag.epc, t);
      let flag = w.state.get(tag.epc);
      if (!pos || pos.floor !== reader.placement.floor || Math.hypot(pos.x - reader.placement.x, pos.y - reader.placement.y) > 40) {
        if (flag) decay(s, flag, t);
        continue;
      }
      const angle = orientations.get(tag.epc) ?? 0;
      let energised = false;
      let best: { rssi: number; antenna: VirtualAntenna } | undefined;
      for (const a of antennas) {
        const rssi = meanRssi(reader.family, dist(a.port, pos), s.transmitPowerInDbm) + polarizationLossDb(angle, a.pol) + gaussian(rng, 0, RSSI_NOISE_DB);
        if (rssi < ENERGISE_DBM) continue;
        energised = true;
        if (rng() >= readProbability(rssi)) continue; // a miss
        if (!best || rssi > best.rssi) best = { rssi, antenna: a };
        if (!location) {
          // Inventory: each antenna's read is its own observation, within the session's rules.
          flag ??= { b: false, lastEnergised: t, lastRead: -Infinity };
          if (!sessionAllows(s, flag, t, k)) continue;
          record(accs, `${tag.epc}|${a.reportedId}`, tag.epc, tids.get(tag.epc) ?? null, a.reportedId, rssi, t, pos);
          flag.lastRead = t;
          flag.b = s.session === 0 ? false : !flag.b || !isDual(s);
          w.state.set(tag.epc, flag);
        }
      }
      if (location && best) {
        flag ??= { b: false, lastEnergised: t, lastRead: -Infinity };
        if (sessionAllows(s, flag, t, k)) {
          record(accs, tag.epc, tag.epc, tids.get(tag.epc) ?? null, best.antenna.reportedId, best.rssi, t, pos);
          flag.lastRead = t;
          flag.b = !flag.b;
          w.state.set(tag.epc, flag);
        }
      }
      if (flag) {
        if (energised) flag.lastEnergised = t;
        else decay(s, flag, t);
      }
    }
  }
  return toObservations(accs, location ? LOCATION_NOISE_M[reader.family] : null, rng);
}

/** The window's reads per tag (and antenna); in LOCATION mode with a position off by `locationNoise` meters (Gaussian), else none. */
function toObservations(accs: Map<string, Acc>, locationNoise: number | null, rng: Rng): Observation[] {
  return [...accs.values()].map((a) => ({
    epc: a.epc,
    tid: a.tid,
    antennaId: a.antennaId,
    peakRssi: Math.round(a.peak * 2) / 2,
    readCount: a.count,
    firstSeen: a.first,
    lastSeen: a.last,
    x: locationNoise !== null ? round2(a.sx / a.count + gaussian(rng, 0, locationNoise)) : null,
    y: locationNoise !== null ? round2(a.sy / a.count + gaussian(rng, 0, locationNoise)) : null,
  }));
}

/** Session 2/3 flags return to A once the tag has been out of the field long enough. */
function decay(s: ReadSettings, flag: TagFlag, t: number): void {
  if (s.session >= 2 && t - flag.lastEnergised >= S23_PERSISTENCE) flag.b = false;
}

const isDual = (s: ReadSettings): boolean => s.searchMode === 'DUAL_TARGET' || s.searchMode === 'DUAL_TARGET_WITH_BTOASELECT';
const round2 = (v: number): number => Math.round(v * 100) / 100;

function record(accs: Map<string, Acc>, key: string, epc: string, tid: string | null, antennaId: number, rssi: number, t: number, pos: TagPosition): void {
  const a = accs.get(key);
  if (!a) {
    accs.set(key, { epc, tid, antennaId, peak: rssi, count: 1, first: t, last: t, sx: pos.x, sy: pos.y });
    return;
  }
  a.count++;
  a.last = t;
  a.sx += pos.x;
  a.sy += pos.y;
  if (rssi > a.peak) {
    a.peak = rssi;
    a.antennaId = antennaId;
  }
}
